# SPDX-License-Identifier: MIT
"""Times onnxmicro (onnxmicro_bench) and onnxruntime on the same models in one run and prints the ratios.

    .venv/bin/python bench/compare_onnxruntime.py --build-dir BUILD [--models-dir DIR] [--out table.md|.json]

1. Models: DIR (every subdirectory holding model.onnx and test_data_set_0/input_K.pb); without --models-dir,
   tests/models/make_qdq_models.py writes the float, QDQ and QOperator models into --work-dir (default: a
   temporary directory, removed afterwards).
2. onnxmicro: BUILD/bench/onnxmicro_bench (or --bench-binary) with --benchmark_format=json and
   --benchmark_repetitions; each time is the median of the repetitions' mean time per run (wall-clock; the
   process's CPU time with --clock cpu, steadier on a busy machine). Quantised models are also timed with
   SessionOptions::fuse_qdq = false ("float path": every node its own float kernel).
3. onnxruntime: CPU execution provider, intra_op_num_threads=N, inter_op_num_threads=1, sequential execution,
   default graph optimisation level; --warmup runs, then the median of --runs timed runs of InferenceSession.run.
   --threads N1,N2,... times both at each thread count (onnxmicro_bench --threads N: a std::thread pool of N).
   --rounds R repeats everything R times, onnxmicro and onnxruntime taking turns, and reports each time's median
   over the rounds: the machine's load drifts, so the two are never timed minutes apart.
4. The table: per model the three times, onnxmicro's QDQ/float ratio (<model> vs <base>_float, e.g. cnn_qdq_asym
   vs cnn_float; issue #6 targets <= 0.5), the same ratio in onnxruntime, and onnxmicro/onnxruntime.
   --out writes it as JSON when the name ends in .json, as markdown otherwise.

Configure the build with -DCMAKE_BUILD_TYPE=Release -DONNXMICRO_BUILD_BENCH=ON and build the onnxmicro_bench target.
Run it with the repo's venv python (tools/setup_python.sh prints its path).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAKE_MODELS = os.path.join(REPO, "tests", "models", "make_qdq_models.py")
TIME_UNIT_TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def fail(message: str) -> None:
    sys.exit(f"compare_onnxruntime: {message}")


def find_models(models_dir: str, only: list[str]) -> dict[str, str]:
    """name -> model directory, sorted by name."""
    if not os.path.isdir(models_dir):
        fail(f"--models-dir '{models_dir}' is not a directory")
    found = {}
    for name in sorted(os.listdir(models_dir)):
        if os.path.isfile(os.path.join(models_dir, name, "model.onnx")) and (not only or name in only):
            found[name] = os.path.join(models_dir, name)
    missing = [name for name in only if name not in found]
    if missing:
        fail(f"no model.onnx for {', '.join(missing)} under '{models_dir}'")
    if not found:
        fail(f"no subdirectory of '{models_dir}' holds a model.onnx")
    return found


def generate_models(work_dir: str) -> str:
    """Runs make_qdq_models.py into work_dir; returns the directory holding the model directories."""
    print(f"generating models: {os.path.relpath(MAKE_MODELS, REPO)} -o {work_dir}", file=sys.stderr)
    result = subprocess.run([sys.executable, MAKE_MODELS, "-o", work_dir], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        fail(f"{MAKE_MODELS} failed (exit {result.returncode}):\n{result.stdout}")
    return os.path.join(work_dir, "qdq-models")


def run_onnxmicro(binary: str, models: dict[str, str], repetitions: int, min_time: str | None,
                  clock: str, threads: int) -> tuple[dict, dict]:
    """Runs onnxmicro_bench over every model; returns ({benchmark name: median entry}, benchmark context)."""
    command = [binary, "--threads", str(threads)]
    for name, directory in models.items():
        command += ["--model", f"{name}={directory}"]
    command += ["--benchmark_format=json", f"--benchmark_repetitions={repetitions}",
                "--benchmark_report_aggregates_only=true"]
    if min_time:
        command.append(f"--benchmark_min_time={min_time}")
    print("running: " + " ".join(command), file=sys.stderr)
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sys.stderr.write(result.stderr)
    # Exit 1 with a JSON report: some models failed to load or prepare, the report names them.
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        fail(f"onnxmicro_bench failed (exit {result.returncode}) without a JSON report")
    entries = {}
    for entry in report["benchmarks"]:
        name = entry.get("run_name", entry["name"])
        if entry.get("error_occurred"):
            entries[name] = {"error": entry.get("error_message", "error")}
        elif entry.get("aggregate_name", "median") == "median" or repetitions == 1:
            entry = dict(entry)
            entry["ms"] = entry["real_time" if clock == "wall" else "cpu_time"] * TIME_UNIT_TO_MS[
                entry.get("time_unit", "ns")]
            entries[name] = entry
    return entries, report.get("context", {})


def time_onnxruntime(models: dict[str, str], warmup: int, runs: int, clock: str,
                     threads: int) -> tuple[dict[str, float | str], dict[str, str], str]:
    """name -> median milliseconds per InferenceSession.run (or an error text); name -> the inputs' shapes
    ("1x3x32x32"); and onnxruntime's version."""
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import numpy_helper

    times: dict[str, float | str] = {}
    shapes: dict[str, str] = {}
    for name, directory in models.items():
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.log_severity_level = 3
        # graph_optimization_level stays at its default (ORT_ENABLE_ALL), what onnxruntime users get.
        try:
            session = ort.InferenceSession(os.path.join(directory, "model.onnx"), options,
                                           providers=["CPUExecutionProvider"])
        except Exception as error:  # noqa: BLE001 - report any load failure in the table
            times[name] = f"error: {error}"
            continue
        feeds = {}
        for k, graph_input in enumerate(session.get_inputs()):
            tensor = onnx.TensorProto()
            with open(os.path.join(directory, "test_data_set_0", f"input_{k}.pb"), "rb") as f:
                tensor.ParseFromString(f.read())
            feeds[graph_input.name] = np.ascontiguousarray(numpy_helper.to_array(tensor))
        shapes[name] = ", ".join("x".join(str(d) for d in value.shape) for value in feeds.values())
        for _ in range(warmup):
            session.run(None, feeds)
        # The process's CPU time counts onnxruntime's threads too (with 1 intra-op thread it runs in this one).
        # (with several threads, CPU time adds theirs up: use wall-clock time to compare thread counts)
        now = time.perf_counter_ns if clock == "wall" else time.process_time_ns
        samples = []
        for _ in range(runs):
            start = now()
            session.run(None, feeds)
            samples.append((now() - start) * 1e-6)
        times[name] = statistics.median(samples)
    return times, shapes, ort.__version__


def float_base(name: str, names) -> str | None:
    """The float model a quantised model was made from: cnn_qdq_asym -> cnn_float, mobilenet_v2_qdq ->
    mobilenet_v2_float (when it was timed)."""
    if name.endswith("_float"):
        return None
    base = (name[:name.index("_qdq")] if "_qdq" in name else name.split("_")[0]) + "_float"
    return base if base in names else None


def ratio(a, b):
    if isinstance(a, float) and isinstance(b, float) and b > 0:
        return a / b
    return None


def median_of_rounds(rounds: list[dict]) -> dict:
    """name -> the last round's value, with its time ("ms" of an entry, or a float) the median over the rounds."""
    merged = {}
    for name, last in rounds[-1].items():
        if isinstance(last, dict):
            times = [r[name]["ms"] for r in rounds if isinstance(r.get(name), dict) and "ms" in r[name]]
            merged[name] = dict(last, ms=statistics.median(times)) if "ms" in last and times else last
        else:
            times = [r[name] for r in rounds if isinstance(r.get(name), float)]
            merged[name] = statistics.median(times) if isinstance(last, float) and times else last
    return merged


def build_rows(models: dict[str, str], ours: dict, theirs: dict[str, float | str],
               shapes: dict[str, str], threads: int) -> list[dict]:
    rows = []
    for name in models:
        entry = ours.get(name, {"error": "not reported by onnxmicro_bench"})
        float_path = ours.get(name + "/float_path")
        base = float_base(name, models)
        ms = entry.get("ms")
        row = {
            "model": name,
            "input": shapes.get(name),
            "threads": threads,
            "onnxmicro_ms": ms,
            "onnxmicro_float_path_ms": float_path.get("ms") if float_path else None,
            "onnxruntime_ms": theirs.get(name) if isinstance(theirs.get(name), float) else None,
            "float_model": base,
            "qdq_over_float_onnxmicro": ratio(ms, ours.get(base, {}).get("ms")) if base else None,
            "qdq_over_float_onnxruntime": ratio(theirs.get(name), theirs.get(base)) if base else None,
            "onnxmicro_over_onnxruntime": ratio(ms, theirs.get(name)),
            "integer_ops": entry.get("integer_ops"),
            "float_ops": entry.get("float_ops"),
            "max_abs_diff": entry.get("max_abs_diff"),
            "errors": [text for text in (entry.get("error"),
                                         float_path.get("error") if float_path else None,
                                         theirs.get(name) if isinstance(theirs.get(name), str) else None) if text],
        }
        rows.append(row)
    return rows


COLUMNS = [
    ("model", "model"),
    ("input", "input"),
    ("threads", "threads"),
    ("onnxmicro_ms", "onnxmicro ms"),
    ("onnxmicro_float_path_ms", "onnxmicro float path ms"),
    ("onnxruntime_ms", "onnxruntime ms"),
    ("qdq_over_float_onnxmicro", "QDQ/float onnxmicro"),
    ("qdq_over_float_onnxruntime", "QDQ/float onnxruntime"),
    ("onnxmicro_over_onnxruntime", "onnxmicro/onnxruntime"),
    ("integer_ops", "integer ops"),
    ("float_ops", "float ops"),
    ("max_abs_diff", "max abs diff"),
]


def cell(key: str, value) -> str:
    if value is None:
        return "-"
    if key in ("integer_ops", "float_ops", "threads"):
        return str(int(value))
    if key == "max_abs_diff":
        return f"{value:.3g}"
    if isinstance(value, float):
        return f"{value:.3f}" if key.endswith("_ms") else f"{value:.2f}"
    return str(value)


def markdown(rows: list[dict], meta: dict) -> str:
    lines = ["| " + " | ".join(title for _, title in COLUMNS) + " |",
             "|" + "|".join("---" if key in ("model", "input") else "---:" for key, _ in COLUMNS) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(cell(key, row[key]) for key, _ in COLUMNS) + " |")
    notes = [f"- {row['model']}: {error}" for row in rows for error in row["errors"]]
    lines += ["", "QDQ/float: the model's time over its `<base>_float` model's time in the same runtime (issue #6: "
              "onnxmicro <= 0.5). integer/float ops: Session::quantized_nodes() of the fused session, the ops of QDQ groups "
              "(QOperator ops such as QLinearConv are integer kernels of their own, not counted). max abs diff: "
              "onnxmicro's first output vs test_data_set_0/output_0.pb (onnxruntime's output).", ""]
    lines += [f"- {key}: {value}" for key, value in meta.items()]
    if notes:
        lines += ["", "Errors:"] + notes
    return "\n".join(lines) + "\n"


def git_state() -> str:
    try:
        head = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.strip()
        return head + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def build_type(build_dir: str | None) -> str | None:
    if not build_dir:
        return None
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_BUILD_TYPE:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", help="build tree holding bench/onnxmicro_bench")
    parser.add_argument("--bench-binary", help="path of onnxmicro_bench (default: BUILD_DIR/bench/onnxmicro_bench)")
    parser.add_argument("--models-dir", help="directory of <name>/model.onnx (default: generate them)")
    parser.add_argument("--work-dir", help="where to generate the models (default: a temporary directory)")
    parser.add_argument("--only", default="", help="comma-separated model names (default: all)")
    parser.add_argument("--repetitions", type=int, default=5, help="onnxmicro_bench repetitions (median reported)")
    parser.add_argument("--min-time", help="--benchmark_min_time for onnxmicro_bench (e.g. 0.5, or 0.5s with "
                                           "Google Benchmark >= 1.8)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed onnxruntime runs per model")
    parser.add_argument("--runs", type=int, default=200, help="timed onnxruntime runs per model (median reported)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall-clock time (default) or the process's CPU time, steadier on a busy machine")
    parser.add_argument("--threads", default="1",
                        help="comma-separated thread counts, each timed for both runtimes (default: 1)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="times to repeat everything, the runtimes taking turns; medians over the rounds")
    parser.add_argument("--out", help="write the table here: JSON when it ends in .json, markdown otherwise")
    args = parser.parse_args()

    binary = args.bench_binary or (os.path.join(args.build_dir, "bench", "onnxmicro_bench") if args.build_dir else None)
    if not binary:
        fail("give --build-dir (configured with -DONNXMICRO_BUILD_BENCH=ON) or --bench-binary")
    if not os.access(binary, os.X_OK):
        fail(f"no onnxmicro_bench at '{binary}': build it with cmake --build BUILD --target onnxmicro_bench")
    kind = build_type(args.build_dir)
    if kind is not None and kind != "Release":
        print(f"compare_onnxruntime: warning: '{args.build_dir}' is a '{kind}' build, not Release", file=sys.stderr)
    only = [name for name in args.only.split(",") if name]
    try:
        thread_counts = [int(t) for t in args.threads.split(",") if t]
    except ValueError:
        fail(f"--threads expects comma-separated whole numbers, got '{args.threads}'")
    if not thread_counts or min(thread_counts) < 1 or args.rounds < 1:
        fail("--threads needs counts >= 1 and --rounds at least 1")

    temporary = None
    try:
        models_dir = args.models_dir
        if not models_dir:
            work_dir = args.work_dir
            if not work_dir:
                temporary = work_dir = tempfile.mkdtemp(prefix="onnxmicro-bench-")
            models_dir = generate_models(work_dir)
        models = find_models(models_dir, only)
        ours_rounds = {t: [] for t in thread_counts}
        theirs_rounds = {t: [] for t in thread_counts}
        for _ in range(args.rounds):
            for t in thread_counts:
                ours, context = run_onnxmicro(binary, models, args.repetitions, args.min_time, args.clock, t)
                theirs, shapes, ort_version = time_onnxruntime(models, args.warmup, args.runs, args.clock, t)
                ours_rounds[t].append(ours)
                theirs_rounds[t].append(theirs)
    finally:
        if temporary:
            shutil.rmtree(temporary, ignore_errors=True)

    rows = []
    for t in thread_counts:
        rows += build_rows(models, median_of_rounds(ours_rounds[t]), median_of_rounds(theirs_rounds[t]), shapes, t)
    meta = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "repo": git_state(),
        "cpu": f"{cpu_name()} ({context.get('num_cpus', '?')} cpus, "
               f"frequency scaling {'on' if context.get('cpu_scaling_enabled') else 'off'})",
        "load_avg": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "clock": "wall-clock time" if args.clock == "wall" else "CPU time of the process",
        "onnxmicro": f"{binary} ({kind or 'build type unknown'}), median of {args.repetitions} repetitions, "
                     f"ISA {context.get('onnxmicro_isa', '?')}, threads: a std::thread pool of N",
        "onnxruntime": f"{ort_version}, CPUExecutionProvider, N intra-op / 1 inter-op thread, sequential, default "
                       f"optimisation level, median of {args.runs} runs after {args.warmup} warm-up runs",
        "rounds": f"{args.rounds} (onnxmicro and onnxruntime in turn; each time is the median over the rounds)",
        "models": models_dir if args.models_dir else "generated by tests/models/make_qdq_models.py",
    }
    table = markdown(rows, meta)
    print(table, end="")
    if args.out:
        with open(args.out, "w") as f:
            if args.out.endswith(".json"):
                json.dump({"meta": meta, "rows": rows}, f, indent=2)
                f.write("\n")
            else:
                f.write(table)
    errors = [error for row in rows for error in row["errors"]]
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
