#include "linter/policy/attributes.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "linter/cost/prices.h"
#include "linter/model/catalog.h"

namespace sagelint {
namespace {

// A single reading of a possibly conditional value: known only when every
// alternative agrees.
const Val* Single(const Val& v) {
  if (!v.conditional()) return &v;
  const Val* first = nullptr;
  bool same = true;
  v.ForEach([&](const Val& alt) {
    if (!first)
      first = &alt;
    else if (!(alt.known() && first->known() && alt.text == first->text))
      same = false;
  });
  return same ? first : nullptr;
}

AttrValue FromVal(const Val& v, AttrType type) {
  AttrValue a;
  a.type = type;
  const Val* s = Single(v);
  a.range = v.range;
  if (!s) {
    a.state = AttrValue::State::kUnknown;
    return a;
  }
  a.range = s->range;
  if (s->absent()) return a;
  if (!s->known()) {
    a.state = AttrValue::State::kUnknown;
    return a;
  }
  a.text = s->text;
  if (type == AttrType::kNumber) {
    auto n = s->number();
    if (!n) {
      a.state = AttrValue::State::kUnknown;
      return a;
    }
    a.number = *n;
  } else if (type == AttrType::kBool) {
    auto b = s->boolean();
    if (!b) {
      a.state = AttrValue::State::kUnknown;
      return a;
    }
    a.boolean = *b;
    a.text = *b ? "true" : "false";
  }
  a.state = AttrValue::State::kKnown;
  return a;
}

AttrValue Known(std::string text) {
  AttrValue a;
  a.state = AttrValue::State::kKnown;
  a.text = std::move(text);
  return a;
}

AttrValue KnownBool(bool b, SourceRange r = {}) {
  AttrValue a;
  a.state = AttrValue::State::kKnown;
  a.type = AttrType::kBool;
  a.boolean = b;
  a.text = b ? "true" : "false";
  a.range = r;
  return a;
}

AttrValue UnknownValue() {
  AttrValue a;
  a.state = AttrValue::State::kUnknown;
  return a;
}

bool IsJob(WorkloadKind k) { return k == WorkloadKind::kTrainingJob || k == WorkloadKind::kTuningJob; }

const Val& InstanceType(const Workload& w) {
  if (w.instance_type.present() || w.apps.empty()) return w.instance_type;
  for (const StudioApp& a : w.apps) {
    if (a.instance_type.present()) return a.instance_type;
  }
  return w.instance_type;
}

}  // namespace

const std::vector<AttrInfo>& Attributes() {
  static const std::vector<AttrInfo> attrs = {
      {"name", AttrType::kString, "logical ID, Terraform address, variable or request name"},
      {"path", AttrType::kString, "file, relative to the working directory"},
      {"format", AttrType::kString, "cloudformation | terraform | python | notebook | cdk"},
      {"instance_type", AttrType::kString, "ml.* instance type (Studio: the first app's default)"},
      {"instance_family", AttrType::kString, "family of the instance type, e.g. p3, g5"},
      {"accelerator", AttrType::kString, "none | gpu | inferentia | trainium | gaudi"},
      {"instance_count", AttrType::kNumber, "instance count"},
      {"framework", AttrType::kString, "sklearn, xgboost, pytorch, tensorflow, huggingface, …"},
      {"image", AttrType::kString, "container image URI"},
      {"spot", AttrType::kBool, "managed Spot training enabled (absent on a visible job: false)"},
      {"max_run_seconds", AttrType::kNumber, "max runtime"},
      {"max_wait_seconds", AttrType::kNumber, "max wait (Spot)"},
      {"checkpoint", AttrType::kString, "checkpoint S3 URI"},
      {"input_modes", AttrType::kList, "effective input mode of each channel (File by default)"},
      {"volume_gb", AttrType::kNumber, "storage volume size"},
      {"keep_alive_seconds", AttrType::kNumber, "warm pool keep-alive"},
      {"lifecycle_config", AttrType::kString, "notebook lifecycle configuration name"},
      {"idle_shutdown", AttrType::kBool, "stops when idle (notebook lifecycle script, Studio idle settings)"},
      {"autoscaling", AttrType::kBool,
       "endpoint variant registered with Application Auto Scaling or with ManagedInstanceScaling enabled"},
      {"serverless", AttrType::kBool, "serverless endpoint variant"},
      {"hourly_usd", AttrType::kNumber, "estimated on-demand price per hour (price × count)"},
      {"instance_groups", AttrType::kList,
       "a HyperPod cluster's or heterogeneous job's groups, each `<name>: <count> × <type>`"},
      {"variant", AttrType::kString, "inference component: the endpoint variant it runs on (endpoint/variant)"},
      {"copies", AttrType::kNumber, "inference component: copies of the model (RuntimeConfig.CopyCount)"},
      {"accelerators_required", AttrType::kNumber, "inference component: accelerators each copy reserves"},
      {"memory_required_mb", AttrType::kNumber, "inference component: memory each copy reserves (MB, minimum)"},
      {"cpu_cores_required", AttrType::kNumber, "inference component: CPU cores each copy reserves"},
  };
  return attrs;
}

const AttrInfo* FindAttribute(std::string_view name) {
  for (const AttrInfo& a : Attributes()) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

namespace {

// `input_modes`: the job's mode for each channel (FileSystem for a file system).
AttrValue InputModesOf(const Workload& w) {
  AttrValue a;
  a.type = AttrType::kList;
  if (!IsJob(w.kind) && w.kind != WorkloadKind::kProcessingJob) return a;
  const Val* job = Single(w.input_mode);
  if (!job || job->unknown()) {
    a.state = AttrValue::State::kUnknown;
    return a;
  }
  std::string job_mode = job->known() ? job->text : "File";
  a.state = AttrValue::State::kKnown;
  for (const Channel& c : w.channels) {
    const Val* m = Single(c.input_mode);
    if (!m || m->unknown()) {
      a.state = AttrValue::State::kUnknown;
      return a;
    }
    a.list.push_back(c.file_system ? "FileSystem" : m->known() ? m->text : job_mode);
  }
  if (w.channels.empty()) a.list.push_back(job_mode);
  a.text = a.list.front();
  return a;
}

// `instance_groups`: "name: count × type" per group; unknown if any group is.
AttrValue InstanceGroupsOf(const Workload& w) {
  AttrValue a;
  a.type = AttrType::kList;
  if (w.instance_groups.empty()) return a;
  a.state = AttrValue::State::kKnown;
  for (const InstanceGroup& g : w.instance_groups) {
    AttrValue type = FromVal(g.instance_type, AttrType::kString);
    AttrValue count = FromVal(g.instance_count, AttrType::kNumber);
    // A group whose type or count is not known makes the list unknown.
    if (!type.known() || count.state == AttrValue::State::kUnknown) {
      a.state = AttrValue::State::kUnknown;
      a.list.clear();
      return a;
    }
    std::string n = count.known() ? count.text : "1";
    a.list.push_back((g.name.known() ? g.name.text : "?") + ": " + n + " × " + type.text);
  }
  a.text = a.list.front();
  return a;
}

// `hourly_usd`: what the workload's instances cost an hour (all groups of a cluster).
AttrValue HourlyUsdOf(const Workload& w, const PriceTable* prices) {
  AttrValue a;
  a.type = AttrType::kNumber;
  auto component = ComponentFor(w.kind);
  if (!component || !prices || OnSystemInstance(w)) return a;
  // A heterogeneous cluster costs what its instance groups cost together.
  std::vector<std::pair<const Val*, const Val*>> parts;
  if (w.instance_groups.empty()) {
    parts.emplace_back(&InstanceType(w), &w.instance_count);
  } else {
    for (const InstanceGroup& g : w.instance_groups) parts.emplace_back(&g.instance_type, &g.instance_count);
  }
  double total = 0;
  for (const auto& [type, count_val] : parts) {
    AttrValue t = FromVal(*type, AttrType::kString);
    if (!t.known()) {
      a.state = t.state;
      return a;
    }
    auto price = prices->Hourly(t.text, *component);
    AttrValue count = FromVal(*count_val, AttrType::kNumber);
    if (!price) {
      a.state = AttrValue::State::kUnknown;
      return a;
    }
    total += *price * (count.known() ? count.number : 1);
  }
  a.state = AttrValue::State::kKnown;
  a.number = std::round(total * 10000) / 10000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", a.number);
  a.text = buf;
  return a;
}

}  // namespace

AttrValue Attribute(const Workload& w, std::string_view name, const PriceTable* prices) {
  if (name == "name") return Known(w.name);
  if (name == "path") return Known(w.path);
  if (name == "format") return Known(std::string(FormatName(w.format)));
  if (name == "instance_type") return FromVal(InstanceType(w), AttrType::kString);
  if (name == "instance_family" || name == "accelerator") {
    if (OnSystemInstance(w)) return AttrValue{};  // Studio's own instance: no ML instance family
    AttrValue t = FromVal(InstanceType(w), AttrType::kString);
    if (!t.known()) return t;
    if (name == "instance_family") {
      std::string family = InstanceFamily(t.text);
      if (family.empty()) t.state = AttrValue::State::kUnknown;
      t.text = family;
      return t;
    }
    auto info = LookupInstance(t.text);
    if (!info) {
      t.state = AttrValue::State::kUnknown;
      return t;
    }
    t.text = info->accelerated() ? std::string(AcceleratorName(info->accelerator)) : "none";
    return t;
  }
  if (name == "instance_count") return FromVal(w.instance_count, AttrType::kNumber);
  if (name == "framework") return FromVal(w.framework, AttrType::kString);
  if (name == "image") return FromVal(w.image, AttrType::kString);
  if (name == "spot") {
    AttrValue a = FromVal(w.spot, AttrType::kBool);
    if (a.state == AttrValue::State::kAbsent && IsJob(w.kind) && w.complete) return KnownBool(false, w.range);
    return a;
  }
  if (name == "max_run_seconds") return FromVal(w.max_run_seconds, AttrType::kNumber);
  if (name == "max_wait_seconds") return FromVal(w.max_wait_seconds, AttrType::kNumber);
  if (name == "checkpoint") return FromVal(w.checkpoint, AttrType::kString);
  if (name == "volume_gb") return FromVal(w.volume_gb, AttrType::kNumber);
  if (name == "keep_alive_seconds") return FromVal(w.keep_alive_seconds, AttrType::kNumber);
  if (name == "lifecycle_config") return FromVal(w.lifecycle_config, AttrType::kString);
  if (name == "input_modes") return InputModesOf(w);
  if (name == "idle_shutdown") {
    if (w.kind == WorkloadKind::kNotebookInstance) {
      if (w.lifecycle_config.absent() && !w.lifecycle_config.conditional() && w.complete)
        return KnownBool(false, w.range);
      return FromVal(w.idle_stop, AttrType::kBool);
    }
    return FromVal(w.idle_shutdown, AttrType::kBool);
  }
  if (name == "autoscaling") {
    // Registered with Application Auto Scaling, or scaled by SageMaker itself
    // (ManagedInstanceScaling ENABLED): either way the instance count follows the load.
    const Val& m = w.managed_scaling;
    if (!m.conditional() && m.known() && m.text == "ENABLED") return KnownBool(true, m.range);
    bool maybe_managed = m.AnyUnknown();
    m.ForEach([&](const Val& v) { maybe_managed = maybe_managed || (v.known() && v.text == "ENABLED"); });
    AttrValue registered = FromVal(w.autoscaling, AttrType::kBool);
    if (maybe_managed && registered.known() && !registered.boolean) return UnknownValue();
    return registered;
  }
  if (name == "serverless") {
    if (w.kind != WorkloadKind::kEndpointVariant) return AttrValue{};
    if (w.serverless.present()) return FromVal(w.serverless, AttrType::kBool);
    return w.complete ? KnownBool(false) : UnknownValue();
  }
  if (name == "instance_groups") return InstanceGroupsOf(w);
  if (name == "variant") {
    if (w.kind != WorkloadKind::kInferenceComponent) return AttrValue{};
    AttrValue a;
    if (w.endpoint_name.known() && w.variant_name.known()) {
      a = Known(w.endpoint_name.text + "/" + w.variant_name.text);
      a.range = w.variant_name.range;
    } else if (w.endpoint_name.present() || w.variant_name.present()) {
      a.state = AttrValue::State::kUnknown;
    }
    return a;
  }
  if (name == "copies") return FromVal(w.copy_count, AttrType::kNumber);
  if (name == "accelerators_required") return FromVal(w.accelerators_required, AttrType::kNumber);
  if (name == "memory_required_mb") return FromVal(w.memory_required_mb, AttrType::kNumber);
  if (name == "cpu_cores_required") return FromVal(w.cpu_cores_required, AttrType::kNumber);
  if (name == "hourly_usd") return HourlyUsdOf(w, prices);
  return AttrValue{};
}

nlohmann::ordered_json AttributesJson(const Workload& w, const PriceTable* prices) {
  nlohmann::ordered_json j = {{"kind", KindName(w.kind)}, {"resource", w.label}, {"line", w.range.begin.line}};
  for (const AttrInfo& info : Attributes()) {
    AttrValue v = Attribute(w, info.name, prices);
    if (v.state == AttrValue::State::kAbsent) continue;
    if (!v.known()) {
      j[std::string(info.name)] = nullptr;
    } else if (info.type == AttrType::kNumber) {
      if (v.number == std::floor(v.number) && std::fabs(v.number) < 1e15) {
        j[std::string(info.name)] = static_cast<long long>(v.number);
      } else {
        j[std::string(info.name)] = v.number;
      }
    } else if (info.type == AttrType::kBool) {
      j[std::string(info.name)] = v.boolean;
    } else if (info.type == AttrType::kList) {
      j[std::string(info.name)] = v.list;
    } else {
      j[std::string(info.name)] = v.text;
    }
  }
  return j;
}

std::string InstancesText(const Workload& w) {
  auto one = [](const Val& type, const Val& count) -> std::string {
    if (type.absent()) return {};
    std::string t = type.known() ? type.text : "?";
    AttrValue n = FromVal(count, AttrType::kNumber);
    if (n.known() && n.number != 1) return n.text + " × " + t;
    if (n.state == AttrValue::State::kUnknown) return "? × " + t;
    return t;
  };
  if (w.instance_groups.empty()) return one(InstanceType(w), w.instance_count);
  std::string out;
  for (const InstanceGroup& g : w.instance_groups) {
    std::string part = one(g.instance_type, g.instance_count);
    out += (out.empty() ? "" : " + ") + (part.empty() ? "?" : part);
  }
  return out;
}

bool OnSystemInstance(const Workload& w) {
  return w.kind == WorkloadKind::kStudioApp && w.instance_type.known() && w.instance_type.text == "system";
}

std::string ComponentText(const Workload& w) {
  auto number = [](const Val& v) -> std::string {
    AttrValue n = FromVal(v, AttrType::kNumber);
    return n.known() ? n.text : "?";
  };
  std::string copies = w.copy_count.present() ? number(w.copy_count) : "?";
  std::string out = copies + (copies == "1" ? " copy" : " copies");
  std::vector<std::string> needs;
  if (w.accelerators_required.present()) needs.push_back(number(w.accelerators_required) + " accelerator(s)");
  if (w.cpu_cores_required.present()) needs.push_back(number(w.cpu_cores_required) + " CPU core(s)");
  if (w.memory_required_mb.present()) needs.push_back(number(w.memory_required_mb) + " MB");
  if (!needs.empty()) {
    out += " × (";
    for (size_t i = 0; i < needs.size(); ++i) out += (i ? ", " : "") + needs[i];
    out += ")";
  }
  AttrValue variant = Attribute(w, "variant", nullptr);
  if (variant.state != AttrValue::State::kAbsent) out += " on " + (variant.known() ? variant.text : std::string("?"));
  return out;
}

}  // namespace sagelint
