
BprobabilitiesJ(¬S=9K¼=ºf*=«^4>w+>œcf=ëzË=wÚ=Í4	=­=(>