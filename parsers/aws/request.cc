#include "parsers/aws/request.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>

#include "parsers/aws/resources.h"
#include "parsers/cloudformation/sub.h"

namespace sagelint::aws {

using cfn::Node;
using cfn::WalkSub;

namespace {

// A request field. Step Functions writes "Key.$": "$.path" for a value taken
// from the state input at run time: unknown, and it may supply anything.
struct RequestField {
  const Node* node = nullptr;
  bool dynamic = false;
  SourcePos pos;
};

RequestField Get(const Node* req, std::string_view key) {
  RequestField f;
  if (!req || !req->is_map()) return f;
  if ((f.node = req->Get(key))) return f;
  std::string dyn = std::string(key) + ".$";
  if (const Node* d = req->Get(dyn)) {
    f.dynamic = true;
    f.pos = d->pos;
  }
  return f;
}

class Mapper {
 public:
  Mapper(const ValueFn& value, Workload* w) : value_(value), w_(w) {}

  // The value of `key` in `req`; an unknown if written dynamically.
  Val At(const Node* req, std::string_view key) {
    RequestField f = Get(req, key);
    if (f.dynamic) {
      w_->complete = false;
      return Val::Unknown({f.pos, f.pos}, "set from the state input");
    }
    return value_(f.node);
  }

  // The sub-object `key`; nullptr when absent. A dynamic one makes the workload incomplete.
  const Node* Obj(const Node* req, std::string_view key) {
    RequestField f = Get(req, key);
    if (f.dynamic || (f.node && !f.node->is_map())) w_->complete = false;
    return f.node && f.node->is_map() ? f.node : nullptr;
  }

  const Node* List(const Node* req, std::string_view key) {
    RequestField f = Get(req, key);
    if (f.dynamic || (f.node && !f.node->is_seq())) w_->complete = false;
    return f.node && f.node->is_seq() ? f.node : nullptr;
  }

  void Training(const Node* req) {
    // The settings a fix writes: where it writes them.
    for (const RequestSetting& s : TrainingRequestSettings()) {
      w_->*s.member = At(s.parent.empty() ? req : Obj(req, s.parent), s.key);
    }
    const Node* algo = Obj(req, "AlgorithmSpecification");
    w_->image = At(algo, "TrainingImage");
    if (!w_->image.present()) {
      Val name = At(algo, "AlgorithmName");
      if (name.known()) w_->image = name;
    }
    const Node* rc = Obj(req, "ResourceConfig");
    w_->instance_type = At(rc, "InstanceType");
    w_->instance_count = At(rc, "InstanceCount");
    w_->volume_gb = At(rc, "VolumeSizeInGB");
    w_->keep_alive_seconds = At(rc, "KeepAlivePeriodInSeconds");
    if (const Node* groups = List(rc, "InstanceGroups"); groups && !groups->items.empty()) {
      // Heterogeneous clusters: every group runs (and bills) its own instances.
      for (const Node& g : groups->items) {
        if (!g.is_map()) {
          w_->complete = false;
          continue;
        }
        InstanceGroup group;
        group.range = {g.pos, g.pos};
        group.name = At(&g, "InstanceGroupName");
        group.instance_type = At(&g, "InstanceType");
        group.instance_count = At(&g, "InstanceCount");
        w_->instance_groups.push_back(std::move(group));
      }
    }
    const Node* stop = Obj(req, "StoppingCondition");
    w_->max_run_seconds = At(stop, "MaxRuntimeInSeconds");
    w_->output_path = At(Obj(req, "OutputDataConfig"), "S3OutputPath");
    // A checkpoint configuration that is not an object may name any location.
    if (!Obj(req, "CheckpointConfig") && Get(req, "CheckpointConfig").node) w_->checkpoint = Val::Unknown();
    if (const Node* inputs = List(req, "InputDataConfig")) {
      for (const Node& in : inputs->items) {
        Channel c;
        c.range = {in.pos, in.pos};
        Val name = At(&in, "ChannelName");
        c.name = name.known() ? name.text : "?";
        c.input_mode = At(&in, "InputMode");
        const Node* ds = Obj(&in, "DataSource");
        if (const Node* s3 = Obj(ds, "S3DataSource")) {
          c.s3_uri = At(s3, "S3Uri");
          c.distribution = At(s3, "S3DataDistributionType");
          c.s3_data_type = At(s3, "S3DataType");
        } else if (Get(ds, "FileSystemDataSource").node) {
          c.file_system = true;
        }
        w_->channels.push_back(std::move(c));
      }
    }
  }

  void Processing(const Node* req) {
    const Node* cluster = Obj(Obj(req, "ProcessingResources"), "ClusterConfig");
    w_->instance_type = At(cluster, "InstanceType");
    w_->instance_count = At(cluster, "InstanceCount");
    w_->volume_gb = At(cluster, "VolumeSizeInGB");
    w_->image = At(Obj(req, "AppSpecification"), "ImageUri");
    w_->max_run_seconds = At(Obj(req, "StoppingCondition"), "MaxRuntimeInSeconds");
    if (const Node* inputs = List(req, "ProcessingInputs")) {
      for (const Node& in : inputs->items) {
        const Node* s3 = Obj(&in, "S3Input");
        if (!s3) continue;
        Channel c;
        c.range = {in.pos, in.pos};
        Val name = At(&in, "InputName");
        c.name = name.known() ? name.text : "?";
        c.s3_uri = At(s3, "S3Uri");
        c.input_mode = At(s3, "S3InputMode");
        c.distribution = At(s3, "S3DataDistributionType");
        c.code = IsCodeInput(name, At(s3, "LocalPath"));
        w_->channels.push_back(std::move(c));
      }
    }
  }

  void Transform(const Node* req) {
    const Node* res = Obj(req, "TransformResources");
    w_->instance_type = At(res, "InstanceType");
    w_->instance_count = At(res, "InstanceCount");
  }

 private:
  const ValueFn& value_;
  Workload* w_;
};

}  // namespace

RequestKind RequestKindOfTaskResource(std::string_view r) {
  if (r.find(":sagemaker:") == std::string_view::npos) return RequestKind::kNone;
  // Step Functions names the API action in camelCase: "createTrainingJob" for create_training_job.
  for (const Resource& res : Resources()) {
    if (res.request == RequestKind::kNone || res.boto3.empty()) continue;
    std::string action;
    for (size_t i = 0; i < res.boto3.size(); ++i) {
      if (res.boto3[i] != '_') {
        action += res.boto3[i];
      } else if (i + 1 < res.boto3.size()) {
        action += static_cast<char>(res.boto3[++i] - 'a' + 'A');
      }
    }
    if (r.find(action) != std::string_view::npos) return res.request;
  }
  return RequestKind::kNone;
}

RequestKind RequestKindOfPipelineStep(std::string_view type) {
  if (type == "Training") return RequestKind::kTraining;
  if (type == "Tuning") return RequestKind::kTuning;
  if (type == "Processing") return RequestKind::kProcessing;
  if (type == "Transform") return RequestKind::kTransform;
  return RequestKind::kNone;
}

void MapRequest(RequestKind kind, const Node& request, const ValueFn& value, const Workload& base,
                std::vector<Workload>* out) {
  Workload w = base;
  Mapper m(value, &w);
  switch (kind) {
    case RequestKind::kTraining:
      w.kind = WorkloadKind::kTrainingJob;
      m.Training(&request);
      out->push_back(std::move(w));
      break;
    case RequestKind::kProcessing:
      w.kind = WorkloadKind::kProcessingJob;
      m.Processing(&request);
      out->push_back(std::move(w));
      break;
    case RequestKind::kTransform:
      w.kind = WorkloadKind::kTransformJob;
      m.Transform(&request);
      out->push_back(std::move(w));
      break;
    case RequestKind::kTuning: {
      std::vector<const Node*> defs;
      if (const Node* one = m.Obj(&request, "TrainingJobDefinition")) defs.push_back(one);
      if (const Node* many = m.List(&request, "TrainingJobDefinitions")) {
        for (const Node& d : many->items) defs.push_back(&d);
      }
      for (size_t i = 0; i < defs.size(); ++i) {
        Workload t = w;
        t.kind = WorkloadKind::kTuningJob;
        if (defs.size() > 1) t.label = base.label + " definition " + std::to_string(i + 1);
        Mapper(value, &t).Training(defs[i]);
        out->push_back(std::move(t));
      }
      break;
    }
    case RequestKind::kNone:
      break;
  }
}

bool IsCodeInput(const Val& name, const Val& local_path) {
  // The SDK's inputs for the processing script and its dependencies, and the directories it places them in.
  static constexpr std::string_view kNames[] = {"code", "entrypoint", "py-files", "jars", "files", "conf", "flow"};
  static constexpr std::string_view kDirs[] = {
      "/opt/ml/processing/input/code", "/opt/ml/processing/input/entrypoint", "/opt/ml/processing/input/py-files",
      "/opt/ml/processing/input/jars", "/opt/ml/processing/input/files",      "/opt/ml/processing/input/conf",
      "/opt/ml/processing/flow"};
  if (name.known() && std::find(std::begin(kNames), std::end(kNames), name.text) != std::end(kNames)) return true;
  if (!local_path.known()) return false;
  std::string_view path = local_path.text;
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  for (std::string_view dir : kDirs) {
    if (path == dir || (path.starts_with(dir) && path[dir.size()] == '/')) return true;
  }
  return false;
}

Val PlainValue(const Node* n) {
  if (!n || n->is_null()) return n ? Val::Absent({n->pos, n->pos}) : Val::Absent();
  SourceRange r{n->pos, n->pos};
  if (!n->is_scalar()) return Val::Unknown(r, "a structured value");
  if (n->text.find(kUnknownMarker) != std::string::npos) return Val::Unknown(r);
  return Val::Known(n->text, r, n->tag.rfind("script:", 0) == 0 ? "" : n->tag);
}

std::string_view RequestKindLabel(RequestKind k) {
  for (const Resource& r : Resources()) {
    if (r.request == k && k != RequestKind::kNone) return r.label;
  }
  return "job";
}

namespace {

constexpr int kMaxStateDepth = 32;

void States(const Node& def, const ValueFn& value, const Workload& base, std::vector<Workload>* out, int depth) {
  if (depth > kMaxStateDepth) return;
  const Node* states = def.Get("States");
  if (!states || !states->is_map()) return;
  for (size_t i = 0; i < states->entries.size(); ++i) {
    const auto& [name, state] = states->entries[i];
    if (!state.is_map()) continue;
    for (const char* nested : {"Iterator", "ItemProcessor"}) {
      if (const Node* n = state.Get(nested)) States(*n, value, base, out, depth + 1);
    }
    if (const Node* branches = state.Get("Branches"); branches && branches->is_seq()) {
      for (const Node& b : branches->items) States(b, value, base, out, depth + 1);
    }
    const Node* resource = state.Get("Resource");
    const Node* params = state.Get("Parameters");
    if (!params) params = state.Get("Arguments");
    if (!resource || !resource->is_scalar() || !params || !params->is_map()) continue;
    RequestKind kind = RequestKindOfTaskResource(resource->text);
    if (kind == RequestKind::kNone) continue;
    Workload w = base;
    w.name = base.name + "." + name;
    w.range = {states->key_pos[i], states->key_pos[i]};
    w.label = std::string(RequestKindLabel(kind)) + " '" + w.name + "'";
    MapRequest(kind, *params, value, w, out);
  }
}

constexpr size_t kMaxPatternBytes = 64u << 10;

// A statement's resource: its value, or for an `Fn::Sub` that does not
// resolve (`arn:${AWS::Partition}:sagemaker:${AWS::Region}:…`) the template
// with each `${…}` read as the wildcard `*`, and for an `Fn::Join` (CDK's
// form of the same ARN) its parts with each unknown one read as `*`: the
// resource type stays visible.
Val ResourcePattern(const Node& r, const ValueFn& value) {
  Val v = value(&r);
  if (v.known()) return v;
  const Node* join = r.tag == "!Join" ? &r : nullptr;
  if (r.is_map() && r.entries.size() == 1 && r.entries[0].first == "Fn::Join") join = &r.entries[0].second;
  if (join) {
    if (!join->is_seq() || join->items.size() != 2 || !join->items[0].is_scalar() || !join->items[1].is_seq()) return v;
    std::string out;
    for (size_t i = 0; i < join->items[1].items.size(); ++i) {
      Val part = value(&join->items[1].items[i]);
      if (i) out += join->items[0].text;
      out += part.known() ? part.text : "*";
      if (out.size() > kMaxPatternBytes) return v;  // no ARN is this long
    }
    return Val::Known(out, v.range, "Fn::Join with its unknown parts as wildcards");
  }
  const Node* tmpl = nullptr;
  if (r.tag == "!Sub") tmpl = &r;
  if (r.is_map() && r.entries.size() == 1 && r.entries[0].first == "Fn::Sub") tmpl = &r.entries[0].second;
  if (tmpl && tmpl->is_seq() && !tmpl->items.empty()) tmpl = &tmpl->items[0];
  if (!tmpl || !tmpl->is_scalar()) return v;
  std::string out;
  bool closed = WalkSub(
      tmpl->text, [&](std::string_view text) { out += text; },
      [&](std::string_view) {
        out += '*';
        return true;
      });
  if (!closed) return v;
  return Val::Known(out, v.range, "Fn::Sub with its variables as wildcards");
}

void Statement(const Node& s, const ValueFn& value, const Workload& base, const std::string& policy, size_t index,
               std::string_view noun, std::vector<Workload>* out) {
  if (!s.is_map()) return;
  Workload w = base;
  w.kind = WorkloadKind::kIamStatement;
  w.range = {s.pos, s.pos};
  w.label = std::string(noun) + " '" + policy + "' statement " + std::to_string(index);
  w.iam.policy = policy;
  w.iam.effect = value(s.Get("Effect"));
  const Node* actions = s.Get("Action");
  if (!actions && (actions = s.Get("NotAction"))) w.iam.not_action = true;
  if (!actions) return;
  auto add_action = [&](const Node& a) {
    Val v = value(&a);
    if (!v.known()) w.iam.actions_complete = false;
    w.iam.actions.push_back(std::move(v));
  };
  if (actions->is_seq()) {
    for (const Node& a : actions->items) add_action(a);
  } else {
    add_action(*actions);
  }
  const Node* resources = s.Get("Resource");
  if (!resources && (resources = s.Get("NotResource"))) w.iam.not_resource = true;
  if (resources) {
    auto add_resource = [&](const Node& r) { w.iam.resources.push_back(ResourcePattern(r, value)); };
    if (resources->is_seq()) {
      for (const Node& r : resources->items) add_resource(r);
    } else {
      add_resource(*resources);
    }
  }
  if (const Node* cond = s.Get("Condition")) {
    if (!cond->is_map()) {
      w.iam.conditions_known = false;
    } else {
      for (const auto& [op, keys] : cond->entries) {
        if (!keys.is_map()) {
          w.iam.conditions_known = false;
          continue;
        }
        for (const auto& [key, values] : keys.entries) {
          IamCondition c;
          c.op = op;
          c.key = key;
          auto add = [&](const Node& n) {
            Val v = value(&n);
            if (v.known())
              c.values.push_back(v.text);
            else
              c.known = false;
          };
          if (values.is_seq()) {
            for (const Node& n : values.items) add(n);
          } else {
            add(values);
          }
          w.iam.conditions.push_back(std::move(c));
        }
      }
    }
  }
  out->push_back(std::move(w));
}

}  // namespace

void MapStateMachine(const Node& definition, const ValueFn& value, const Workload& base, std::vector<Workload>* out) {
  States(definition, value, base, out, 0);
}

void MapPolicyDocument(const Node& document, const ValueFn& value, const Workload& base, const std::string& policy,
                       std::vector<Workload>* out, std::string_view noun) {
  const Node* statements = document.Get("Statement");
  if (!statements) return;
  std::vector<const Node*> list;
  if (statements->is_map()) list.push_back(statements);
  for (const Node& s : statements->items) list.push_back(&s);
  for (size_t i = 0; i < list.size(); ++i) Statement(*list[i], value, base, policy, i + 1, noun, out);
}

namespace {

// A service principal as the CDK writes it in a template: `Fn::Join` of
// literal parts and the `AWS::URLSuffix` pseudo parameter ("ecs-tasks." +
// URL suffix), named with the suffix of the commercial partition.
std::optional<std::string> JoinedServiceName(const Node& n, const ValueFn& value) {
  const Node* join = n.is_map() && n.entries.size() == 1 ? n.Get("Fn::Join") : nullptr;
  if (!join || !join->is_seq() || join->items.size() != 2 || !join->items[1].is_seq()) return std::nullopt;
  Val sep = value(&join->items[0]);
  if (!sep.known()) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < join->items[1].items.size(); ++i) {
    const Node& part = join->items[1].items[i];
    if (i > 0) out += sep.text;
    const Node* ref = part.is_map() && part.entries.size() == 1 ? part.Get("Ref") : nullptr;
    if (ref && ref->is_scalar() && ref->text == "AWS::URLSuffix") {
      out += "amazonaws.com";
      continue;
    }
    Val v = value(&part);
    if (!v.known()) return std::nullopt;
    out += v.text;
  }
  return out;
}

}  // namespace

std::vector<std::string> TrustedServices(const Node& trust_policy, const ValueFn& value) {
  const Node* statements = trust_policy.Get("Statement");
  if (!statements) return {};
  std::vector<const Node*> list;
  if (statements->is_map()) list.push_back(statements);
  for (const Node& s : statements->items) list.push_back(&s);
  std::vector<std::string> services;
  for (const Node* s : list) {
    if (!s->is_map()) return {};
    Val effect = value(s->Get("Effect"));
    if (!effect.known()) return {};
    if (effect.text == "Deny") continue;  // a Deny lets no one in
    if (s->Get("NotPrincipal")) return {};
    const Node* principal = s->Get("Principal");
    if (!principal || !principal->is_map() || principal->entries.empty()) return {};  // "*" or unreadable
    for (const auto& [kind, who] : principal->entries) {
      if (kind != "Service") return {};
      std::vector<const Node*> names;
      if (who.is_seq()) {
        for (const Node& n : who.items) names.push_back(&n);
      } else {
        names.push_back(&who);
      }
      for (const Node* n : names) {
        Val v = value(n);
        std::optional<std::string> name = v.known() ? std::optional<std::string>(v.text) : JoinedServiceName(*n, value);
        if (!name || name->empty() || name->find('*') != std::string::npos) return {};
        services.push_back(*name);
      }
    }
  }
  std::sort(services.begin(), services.end());
  services.erase(std::unique(services.begin(), services.end()), services.end());
  return services;
}

}  // namespace sagelint::aws
