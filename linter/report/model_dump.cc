#include "linter/report/model_dump.h"

#include <sstream>

namespace sagelint {
namespace {

std::string Pos(const SourceRange& r) {
  if (!r.valid()) return "";
  std::string s = "@" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
  if (r.cell > 0) s += "[cell " + std::to_string(r.cell) + ":" + std::to_string(r.cell_line) + "]";
  return s;
}

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

void Field(std::ostringstream& out, const char* indent, const char* name, const Val& v) {
  if (v.absent() && !v.conditional()) return;
  out << indent << name << ": " << DumpVal(v) << "\n";
}

}  // namespace

std::string DumpVal(const Val& v) {
  std::string s;
  if (v.conditional()) {
    s = "one of [";
    for (size_t i = 0; i < v.alternatives.size(); ++i) {
      if (i) s += ", ";
      s += DumpVal(v.alternatives[i]);
    }
    s += "]";
  } else if (v.known()) {
    std::string text = v.text.size() > 60 ? v.text.substr(0, 57) + "..." : v.text;
    s = Quote(text);
  } else if (v.unknown()) {
    s = "unknown";
  } else {
    s = "absent";
  }
  s += Pos(v.range);
  if (!v.origin.empty()) s += " (" + v.origin + ")";
  if (!v.condition.empty()) s += " {" + v.condition + "}";
  return s;
}

std::string DumpWorkload(const Workload& w) {
  std::ostringstream out;
  out << KindName(w.kind) << " " << Quote(w.name) << Pos(w.range) << " label=" << Quote(w.label);
  if (!w.complete) out << " incomplete";
  if (!w.condition.empty()) out << " condition=" << w.condition;
  out << "\n";
  const char* in = "  ";
  Field(out, in, "instance_type", w.instance_type);
  Field(out, in, "instance_count", w.instance_count);
  Field(out, in, "volume_gb", w.volume_gb);
  for (const InstanceGroup& g : w.instance_groups) {
    out << "  instance_group" << Pos(g.range) << "\n";
    Field(out, "    ", "name", g.name);
    Field(out, "    ", "instance_type", g.instance_type);
    Field(out, "    ", "instance_count", g.instance_count);
  }
  Field(out, in, "image", w.image);
  Field(out, in, "framework", w.framework);
  Field(out, in, "spot", w.spot);
  Field(out, in, "max_run_seconds", w.max_run_seconds);
  Field(out, in, "max_wait_seconds", w.max_wait_seconds);
  Field(out, in, "checkpoint", w.checkpoint);
  Field(out, in, "keep_alive_seconds", w.keep_alive_seconds);
  Field(out, in, "input_mode", w.input_mode);
  for (const Channel& c : w.channels) {
    out << "  channel " << Quote(c.name) << Pos(c.range) << (c.file_system ? " file_system" : "")
        << (c.code ? " code" : "") << "\n";
    Field(out, "    ", "s3_uri", c.s3_uri);
    Field(out, "    ", "input_mode", c.input_mode);
    Field(out, "    ", "distribution", c.distribution);
    Field(out, "    ", "s3_data_type", c.s3_data_type);
    Field(out, "    ", "dataset_size_gb", c.dataset_size_gb);
  }
  Field(out, in, "accelerator_type", w.accelerator_type);
  Field(out, in, "serverless", w.serverless);
  Field(out, in, "async_inference", w.async_inference);
  Field(out, in, "managed_scaling", w.managed_scaling);
  Field(out, in, "endpoint_name", w.endpoint_name);
  Field(out, in, "variant_name", w.variant_name);
  Field(out, in, "copy_count", w.copy_count);
  Field(out, in, "accelerators_required", w.accelerators_required);
  Field(out, in, "memory_required_mb", w.memory_required_mb);
  Field(out, in, "cpu_cores_required", w.cpu_cores_required);
  Field(out, in, "deleted", w.deleted);
  Field(out, in, "service_namespace", w.service_namespace);
  Field(out, in, "resource_id", w.resource_id);
  Field(out, in, "scalable_dimension", w.scalable_dimension);
  Field(out, in, "min_capacity", w.min_capacity);
  Field(out, in, "max_capacity", w.max_capacity);
  Field(out, in, "lifecycle_config", w.lifecycle_config);
  Field(out, in, "on_start", w.on_start);
  Field(out, in, "on_create", w.on_create);
  for (const StudioApp& a : w.apps) {
    out << "  app " << a.scope << "." << a.app << Pos(a.range) << "\n";
    Field(out, "    ", "instance_type", a.instance_type);
    Field(out, "    ", "idle_management", a.idle_management);
    Field(out, "    ", "idle_timeout_minutes", a.idle_timeout_minutes);
  }
  if (w.kind == WorkloadKind::kIamStatement) {
    const IamStatement& s = w.iam;
    out << "  policy: " << Quote(s.policy);
    if (!s.managed_policy.empty()) out << " managed=" << Quote(s.managed_policy);
    out << "\n";
    Field(out, in, "effect", s.effect);
    out << (s.not_action ? "  not_actions:" : "  actions:");
    for (const Val& a : s.actions) out << " " << DumpVal(a);
    if (!s.actions_complete) out << " (incomplete)";
    out << "\n";
    for (const IamCondition& c : s.conditions) {
      out << "  condition " << c.op << " " << c.key << " =";
      for (const std::string& v : c.values) out << " " << Quote(v);
      if (!c.known) out << " (unknown)";
      out << "\n";
    }
    if (!s.conditions_known) out << "  conditions: unknown\n";
  }
  for (const std::string& k : w.keys) out << "  key " << k << "\n";
  for (const std::string& r : w.refs) out << "  ref " << r << "\n";
  for (const std::string& s : w.suppressed) out << "  suppressed " << s << "\n";
  return out.str();
}

std::string DumpFileResult(const FileResult& r) {
  std::ostringstream out;
  out << "file " << r.path << " (" << FormatName(r.format) << (r.context ? ", context" : "") << ")\n";
  for (const ParseError& e : r.errors) {
    out << "error @" << e.pos.line << ":" << e.pos.column << " " << e.message << "\n";
  }
  for (const ParseError& e : r.notes) {
    out << "note @" << e.pos.line << ":" << e.pos.column << " " << e.message << "\n";
  }
  for (const Workload& w : r.workloads) out << DumpWorkload(w);
  return out.str();
}

}  // namespace sagelint
