// SPDX-License-Identifier: MIT
// Model-local functions (ModelProto.functions): every main-graph node that calls one is replaced by the
// function's body before the graph is built, as onnxruntime does. The body's values get the call's names for the
// function's inputs and outputs and a prefix unique to the call for everything else; attributes that refer to
// the caller's (ref_attr_name) take the caller's value, or the function's default, or are left out; nested calls
// expand the same way (depth-limited). The result is new ModelProto bytes in metadata (counted first, then
// written), so the rest of the loader sees an ordinary model. Functions called from inside subgraphs, and bodies
// holding subgraphs, are reported as unsupported.
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>

#include "onnxmicro/core/memory.hpp"
#include "onnxmicro/model/graph.hpp"
#include "onnxmicro/proto/onnx_views.hpp"
#include "onnxmicro/proto/wire.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {

/// Counts (buffer null) or writes protobuf fields.
class ProtoEmitter {
 public:
  explicit ProtoEmitter(unsigned char* buffer = nullptr) noexcept : buffer_(buffer) {}
  std::size_t size() const noexcept { return size_; }

  void raw(const void* data, std::size_t bytes) noexcept {
    if (buffer_ != nullptr && bytes != 0) std::memcpy(buffer_ + size_, data, bytes);
    size_ += bytes;
  }
  void varint(std::uint64_t value) noexcept {
    do {
      unsigned char byte = static_cast<unsigned char>(value & 0x7f);
      value >>= 7;
      if (value != 0) byte |= 0x80;
      raw(&byte, 1);
    } while (value != 0);
  }
  void tag(std::uint32_t field, std::uint32_t wire_type) noexcept { varint((std::uint64_t(field) << 3) | wire_type); }
  void bytes_field(std::uint32_t field, const void* data, std::size_t bytes) noexcept {
    tag(field, 2);
    varint(bytes);
    raw(data, bytes);
  }
  void string_field(std::uint32_t field, std::string_view text) noexcept {
    bytes_field(field, text.data(), text.size());
  }
  /// A string field whose value is prefix + text.
  void prefixed_string_field(std::uint32_t field, std::string_view prefix, std::string_view text) noexcept {
    tag(field, 2);
    varint(prefix.size() + text.size());
    raw(prefix.data(), prefix.size());
    raw(text.data(), text.size());
  }

 private:
  unsigned char* buffer_;
  std::size_t size_ = 0;
};

/// Copies every field of `message` for which `skip(field number)` is false, byte for byte.
template <typename Skip>
inline Status copy_fields(ProtoEmitter& out, ByteSpan message, Skip&& skip) noexcept {
  proto::WireReader reader(message);
  while (!reader.at_end()) {
    const std::size_t start = reader.offset();
    proto::WireField field;
    const proto::WireError error = reader.next_field(field);
    if (error != proto::WireError::none) return reader.error_status(error);
    if (!skip(field.number)) out.raw(message.data() + start, reader.offset() - start);
  }
  return {};
}

class FunctionInliner {
 public:
  static constexpr int kMaxCallDepth = ONNXMICRO_MAX_FUNCTION_CALL_DEPTH;

  FunctionInliner(const proto::Model& model, MetadataAllocator& allocator) noexcept
      : model_(model), allocator_(allocator) {}

  /// New model bytes with every local-function call of the main graph expanded; `out` empty when the model
  /// has no local functions (load the original bytes then).
  Status run(ByteSpan& out) noexcept {
    out = ByteSpan();
    if (model_.functions().empty()) return {};
    ProtoEmitter counter;
    ONNXMICRO_RETURN_IF_ERROR(emit_model(counter));
    auto* buffer = static_cast<unsigned char*>(allocator_.allocate(counter.size() + 1, 16));
    if (buffer == nullptr) {
      return Status(StatusCode::out_of_memory)
             << "metadata allocator exhausted expanding model-local functions (" << counter.size() << " bytes)";
    }
    ProtoEmitter writer(buffer);
    call_counter_ = 0;
    ONNXMICRO_RETURN_IF_ERROR(emit_model(writer));
    out = ByteSpan(buffer, writer.size());
    return {};
  }

 private:
  /// Names inside one function call: formal input/output names map to the caller's, others get `prefix`.
  struct CallScope {
    const proto::Function* function = nullptr;
    const proto::Node* call = nullptr;  ///< the calling node (its names already mapped by `parent`)
    const CallScope* parent = nullptr;
    std::uint32_t id = 0;
  };

  const proto::Function* find_function(const proto::Node& node) const noexcept {
    for (const proto::Function& f : model_.functions()) {
      if (f.name == node.op_type && model::normalize_domain(f.domain) == model::normalize_domain(node.domain)) {
        // Cheap pointer-stable copy: RepeatedField iterates views; keep the one we found.
        found_ = f;
        return &found_;
      }
    }
    return nullptr;
  }

  // Emits `name` as the scope sees it: the caller's name for a formal input/output, a prefixed name otherwise.
  void emit_name(ProtoEmitter& out, std::uint32_t field, std::string_view name, const CallScope* scope) const noexcept {
    if (scope == nullptr || name.empty()) {
      out.string_field(field, name);
      return;
    }
    std::size_t k = 0;
    for (std::string_view formal : scope->function->inputs()) {
      if (formal == name) {
        std::size_t j = 0;
        for (std::string_view actual : scope->call->inputs()) {
          if (j++ == k) return emit_name(out, field, actual, scope->parent);
        }
        return out.string_field(field, std::string_view());  // not passed: an omitted optional input
      }
      ++k;
    }
    k = 0;
    for (std::string_view formal : scope->function->outputs()) {
      if (formal == name) {
        std::size_t j = 0;
        for (std::string_view actual : scope->call->outputs()) {
          if (j++ == k) return emit_name(out, field, actual, scope->parent);
        }
        return out.string_field(field, std::string_view());
      }
      ++k;
    }
    emit_prefixed(out, field, name, scope);
  }
  // "<function>__<call id>__name" (ids are unique across the whole expansion).
  void emit_prefixed(ProtoEmitter& out, std::uint32_t field, std::string_view name,
                     const CallScope* scope) const noexcept {
    char id[24];
    int digits = 0;
    std::uint32_t v = scope->id;
    do {
      id[digits++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    char prefix[24];
    for (int i = 0; i < digits; ++i) prefix[i] = id[digits - 1 - i];
    const std::string_view fn = scope->function->name;
    out.tag(field, 2);
    out.varint(fn.size() + 2 + static_cast<std::size_t>(digits) + 2 + name.size());
    out.raw(fn.data(), fn.size());
    out.raw("__", 2);
    out.raw(prefix, static_cast<std::size_t>(digits));
    out.raw("__", 2);
    out.raw(name.data(), name.size());
  }

  // An attribute of a body node: as written, or (ref_attr_name) the caller's / the default, renamed.
  Status emit_attribute(ProtoEmitter& out, const proto::Attribute& a, const CallScope* scope) const noexcept {
    if (a.type == proto::AttributeType::graph || a.type == proto::AttributeType::graphs) {
      return Status(StatusCode::unsupported)
             << "model-local function '" << scope->function->name << "' has a node with a subgraph attribute '"
             << a.name << "', which function expansion does not support yet";
    }
    if (a.ref_attr_name.empty()) {
      out.bytes_field(5, a.bytes.data(), a.bytes.size());
      return {};
    }
    proto::Attribute value;
    bool found = false;
    resolve_reference(a.ref_attr_name, scope, value, found);
    if (!found) return {};  // an optional attribute the caller left out
    ProtoEmitter counter;
    counter.string_field(1, a.name);
    ONNXMICRO_RETURN_IF_ERROR(copy_fields(counter, value.bytes, [](std::uint32_t f) { return f == 1 || f == 21; }));
    out.tag(5, 2);
    out.varint(counter.size());
    out.string_field(1, a.name);
    return copy_fields(out, value.bytes, [](std::uint32_t f) { return f == 1 || f == 21; });
  }
  // The value of attribute `reference` of the call in `scope`: the caller's (following its own reference when it
  // is itself a body node of an enclosing call), else the function's default.
  static void resolve_reference(std::string_view reference, const CallScope* scope, proto::Attribute& out,
                                bool& found) noexcept {
    proto::Attribute value;
    if (scope->call->find_attribute(reference, value)) {
      if (value.ref_attr_name.empty()) {
        out = value;
        found = true;
      } else if (scope->parent != nullptr) {
        resolve_reference(value.ref_attr_name, scope->parent, out, found);
      }
      return;
    }
    for (const proto::Attribute& d : scope->function->attribute_defaults()) {
      if (d.name == reference) {
        out = d;
        found = true;
      }
    }
  }

  Status emit_node(ProtoEmitter& out, const proto::Node& node, const CallScope* scope, int depth) noexcept {
    const proto::Function* function = find_function(node);
    if (function != nullptr) {
      if (depth >= kMaxCallDepth) {
        return Status(StatusCode::limit_exceeded) << "model-local function '" << function->name
                                                  << "' calls nest more than ONNXMICRO_MAX_FUNCTION_CALL_DEPTH ("
                                                  << kMaxCallDepth << ") levels deep (or recurse)";
      }
      const proto::Function callee = *function;
      CallScope inner;
      inner.function = &callee;
      inner.call = &node;
      inner.parent = scope;
      inner.id = call_counter_++;
      for (const proto::Node& body : callee.nodes()) ONNXMICRO_RETURN_IF_ERROR(emit_node(out, body, &inner, depth + 1));
      return {};
    }
    if (scope == nullptr) {
      out.bytes_field(1, node.bytes.data(), node.bytes.size());  // a main-graph node, unchanged
      return {};
    }
    // A body node, renamed into the caller's graph.
    ProtoEmitter counter;
    ONNXMICRO_RETURN_IF_ERROR(emit_node_fields(counter, node, scope));
    out.tag(1, 2);
    out.varint(counter.size());
    return emit_node_fields(out, node, scope);
  }
  Status emit_node_fields(ProtoEmitter& out, const proto::Node& node, const CallScope* scope) const noexcept {
    for (std::string_view name : node.inputs()) emit_name(out, 1, name, scope);
    for (std::string_view name : node.outputs()) emit_name(out, 2, name, scope);
    if (!node.name.empty()) emit_prefixed(out, 3, node.name, scope);
    out.string_field(4, node.op_type);
    for (const proto::Attribute& a : node.attributes()) ONNXMICRO_RETURN_IF_ERROR(emit_attribute(out, a, scope));
    if (!node.domain.empty()) out.string_field(7, node.domain);
    return {};
  }

  // The body nodes' domains resolve against the functions' opset imports: merge them into the model's.
  Status emit_opsets(ProtoEmitter& out) const noexcept {
    for (const proto::OperatorSetId& o : model_.opset_imports()) emit_opset(out, o);
    for (const proto::Function& f : model_.functions()) {
      for (const proto::OperatorSetId& fo : f.opset_imports()) {
        bool known = false;
        for (const proto::OperatorSetId& mo : model_.opset_imports()) {
          if (model::normalize_domain(mo.domain) != model::normalize_domain(fo.domain)) continue;
          known = true;
          if (mo.version != fo.version) {
            return Status(StatusCode::unsupported)
                   << "model-local function '" << f.name << "' imports domain '"
                   << model::display_domain(model::normalize_domain(fo.domain)) << "' at version " << fo.version
                   << ", the model at " << mo.version << "; expanding it would change its nodes' semantics";
          }
        }
        // Domains only functions use (their own, usually) join the model's imports once.
        if (!known && !already_added(fo, f)) emit_opset(out, fo);
      }
    }
    return {};
  }
  static void emit_opset(ProtoEmitter& out, const proto::OperatorSetId& o) noexcept {
    ProtoEmitter counter;
    counter.string_field(1, o.domain);
    counter.tag(2, 0);
    counter.varint(static_cast<std::uint64_t>(o.version));
    out.tag(8, 2);
    out.varint(counter.size());
    out.string_field(1, o.domain);
    out.tag(2, 0);
    out.varint(static_cast<std::uint64_t>(o.version));
  }
  // Whether an earlier function (in file order) already contributed an import of `o`'s domain.
  bool already_added(const proto::OperatorSetId& o, const proto::Function& current) const noexcept {
    for (const proto::Function& f : model_.functions()) {
      if (f.bytes.data() == current.bytes.data()) return false;
      for (const proto::OperatorSetId& fo : f.opset_imports())
        if (model::normalize_domain(fo.domain) == model::normalize_domain(o.domain)) return true;
    }
    return false;
  }

  Status emit_graph(ProtoEmitter& out) noexcept {
    const proto::Graph& g = model_.graph;
    for (const proto::Node& node : g.nodes()) ONNXMICRO_RETURN_IF_ERROR(emit_node(out, node, nullptr, 0));
    return copy_fields(out, g.bytes, [](std::uint32_t f) { return f == 1; });
  }

  Status emit_model(ProtoEmitter& out) noexcept {
    call_counter_ = 0;
    ONNXMICRO_RETURN_IF_ERROR(
        copy_fields(out, model_.bytes, [](std::uint32_t f) { return f == 7 || f == 8 || f == 25; }));
    ONNXMICRO_RETURN_IF_ERROR(emit_opsets(out));
    ProtoEmitter counter;
    ONNXMICRO_RETURN_IF_ERROR(emit_graph(counter));
    out.tag(7, 2);
    out.varint(counter.size());
    call_counter_ = 0;
    return emit_graph(out);
  }

  const proto::Model& model_;
  MetadataAllocator& allocator_;
  std::uint32_t call_counter_ = 0;
  mutable proto::Function found_;
};

}  // namespace detail
ONNXMICRO_NAMESPACE_END
