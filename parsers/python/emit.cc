// From the recorded SDK objects and boto3 requests to workloads.
#include <algorithm>
#include <cctype>
#include <functional>

#include "parsers/aws/request.h"
#include "parsers/aws/resources.h"
#include "parsers/common/base64.h"
#include "parsers/python/sdk_model.h"

namespace sagelint::py {
namespace {

using aws::kUnknownMarker;

bool IsLocalType(std::string_view t) { return t == "local" || t == "local_gpu" || t == "local_cpu"; }

// How a label names an object of class `cls` that is a `noun`: "SKLearn
// estimator", but "estimator" for the SDK's own Estimator and "ScriptProcessor"
// for a class whose name already says what it is.
std::string ClassLabel(const std::string& cls, std::string_view noun) {
  if (cls.size() == noun.size() && std::equal(cls.begin(), cls.end(), noun.begin(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == b;
      })) {
    return std::string(noun);
  }
  if (cls.size() > noun.size() && std::tolower(static_cast<unsigned char>(cls[cls.size() - noun.size()])) == noun[0] &&
      cls.compare(cls.size() - noun.size() + 1, std::string::npos, noun.substr(1)) == 0) {
    return cls;
  }
  return cls + " " + std::string(noun);
}

// Positions of instance_count / instance_type among a constructor's positional parameters.
std::pair<int, int> ComputePositions(const Object& o) {
  const std::string& c = o.cls;
  if (o.kind == ObjKind::kEstimator) {
    if (c == "Estimator" || c == "AlgorithmEstimator") return {2, 3};
    if (c == "KMeans" || c == "PCA" || c == "LinearLearner" || c == "FactorizationMachines" || c == "NTM" ||
        c == "LDA" || c == "RandomCutForest" || c == "KNN" || c == "IPInsights" || c == "Object2Vec") {
      return {1, 2};
    }
    return {-1, -1};
  }
  if (o.kind == ObjKind::kProcessor) {
    if (c == "Processor") return {2, 3};
    if (c == "ScriptProcessor") return {3, 4};
    if (c == "FrameworkProcessor") return {3, 4};
    if (c == "SageMakerClarifyProcessor") return {1, 2};
    if (c == "PySparkProcessor" || c == "SparkJarProcessor") return {2, 1};
    if (c.ends_with("Processor")) return {2, 3};  // SKLearnProcessor(framework_version, role, count, type)
  }
  return {-1, -1};
}

// Calls `fn` with every value of a workload, its groups' and channels' included.
void ForEachVal(Workload& w, const std::function<void(Val&)>& fn) {
  for (Val* v : {&w.instance_type,    &w.instance_count,
                 &w.volume_gb,        &w.image,
                 &w.framework,        &w.spot,
                 &w.max_run_seconds,  &w.max_wait_seconds,
                 &w.checkpoint,       &w.keep_alive_seconds,
                 &w.output_path,      &w.input_mode,
                 &w.accelerator_type, &w.serverless,
                 &w.async_inference,  &w.managed_scaling,
                 &w.endpoint_name,    &w.variant_name,
                 &w.deleted,          &w.service_namespace,
                 &w.resource_id,      &w.scalable_dimension,
                 &w.min_capacity,     &w.max_capacity,
                 &w.lifecycle_config, &w.on_start,
                 &w.on_create}) {
    fn(*v);
  }
  for (InstanceGroup& g : w.instance_groups) {
    fn(g.name);
    fn(g.instance_type);
    fn(g.instance_count);
  }
  for (Channel& c : w.channels) {
    fn(c.s3_uri);
    fn(c.input_mode);
    fn(c.distribution);
    fn(c.dataset_size_gb);
    fn(c.s3_data_type);
  }
}

// The keywords of a dict or SDK helper value as call arguments, for Arg().
Args KeywordArgs(const Value& h) {
  Args a;
  for (const Entry& e : h.entries) a.keywords.emplace_back(e.key, e.value);
  return a;
}

}  // namespace

std::optional<Ev> SdkModel::Arg(const Args& a, std::initializer_list<std::string_view> names, int position) const {
  for (std::string_view name : names) {
    for (auto it = a.keywords.rbegin(); it != a.keywords.rend(); ++it) {
      if (it->first == name) return it->second;
    }
  }
  if (position >= 0 && position < static_cast<int>(a.positional.size())) return a.positional[position];
  return std::nullopt;
}

Val SdkModel::ToVal(const std::optional<Ev>& e) const {
  if (!e) return Val::Absent();
  if (reading_ && reading_->count(e->v)) read_arg_ = true;
  SourceRange range = a_.R(e->at);
  const Value& v = a_.V(e->v);
  switch (v.kind) {
    case VK::kNone:
      return Val::Absent(range);
    case VK::kStr:
    case VK::kNum:
    case VK::kBool: {
      Val out = Val::Known(v.text, range, v.origin);
      out.literal = a_.LiteralSite(*e);
      return out;
    }
    case VK::kOneOf: {
      std::vector<Val> alts;
      for (const Alt& a : v.alts) {
        Val x = ToVal(Ev{a.value.v, ts_node_is_null(a.value.at) ? e->at : a.value.at});
        if (x.conditional()) {
          // Nested conditions were flattened when the value was built; keep it plain.
          x = Val::Unknown(x.range);
        }
        x.literal = {};  // one of several: no single literal to edit
        x.condition = a.cond;
        alts.push_back(std::move(x));
      }
      return Val::OneOf(std::move(alts), range);
    }
    default:
      return Val::Unknown(range);
  }
}

Workload SdkModel::Base(WorkloadKind kind, TSNode call, const std::string& what, const std::string& name) const {
  Workload w;
  w.kind = kind;
  w.format = a_.nb_ ? Format::kNotebook : Format::kPython;
  w.path = a_.file_.path;
  // A notebook links within its workflow (the notebooks of its directory).
  w.scope = a_.nb_ ? a_.workflow_ : a_.file_.path;
  if (name.empty()) {
    w.name = CallText(call);
    w.label = what + " created by " + w.name;
  } else {
    w.name = name;
    w.label = what + " '" + name + "'";
  }
  w.range = a_.R(call);
  return w;
}

std::string SdkModel::CallText(TSNode call) const {
  TSNode fn = g_.Kind(call) == N::kCall ? g_.Field(call, g_.f_function) : call;
  std::string out;
  int depth = 0;
  char quote = 0;
  for (char c : a_.T(fn)) {
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (depth > 0 && (c == '"' || c == '\'')) {
      quote = c;
      continue;
    }
    if (c == '(' || c == '[') {
      if (depth++ == 0) out += c == '(' ? "()" : "[…]";
      continue;
    }
    if (c == ')' || c == ']') {
      if (depth > 0) --depth;
      continue;
    }
    if (depth > 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') continue;
    out += c;
  }
  if (out.size() > 60) out = "…" + out.substr(out.size() - 57);
  return out + "()";
}

std::string SdkModel::Where(const SourceRange& r) const {
  return a_.nb_ ? "in cell " + std::to_string(r.cell) : "at line " + std::to_string(r.begin.line);
}

std::string SdkModel::RequestName(const Args& a, const char* key, const Val& known) const {
  if (known.known()) return known.text;
  if (auto e = Arg(a, {key}); e && (g_.Kind(e->at) == N::kIdentifier || g_.Kind(e->at) == N::kAttribute)) {
    return std::string(a_.T(e->at));
  }
  return CallText(a.call);
}

// A helper run at a visible call made this workload: it is that call's, so
// it is placed there, and its label says where the helper made it.
void SdkModel::PlaceAtCall(Workload& w, TSNode via, const std::string& helper) const {
  SourceRange call = a_.R(via);
  auto inside = [&](const SourceRange& r) {
    auto before = [](SourcePos a, SourcePos b) {
      return a.line < b.line || (a.line == b.line && a.column <= b.column);
    };
    return r.valid() && before(call.begin, r.begin) && before(r.begin, call.end);
  };
  std::function<void(Val&)> place = [&](Val& v) {
    if (v.range.valid() && !inside(v.range)) v.range = call;
    for (Val& a : v.alternatives) place(a);
  };
  w.range = call;
  w.label += " (" + helper + ")";
  ForEachVal(w, place);
  for (InstanceGroup& g : w.instance_groups) g.range = inside(g.range) ? g.range : call;
  for (Channel& c : w.channels) c.range = inside(c.range) ? c.range : call;
}

// SDK local mode runs on this machine: not a cloud workload. A conditional
// instance type keeps only its cloud alternatives.
bool SdkModel::LocalWorkload(Workload& w) const {
  Val& t = w.instance_type;
  if (t.known()) return IsLocalType(t.text);
  if (!t.conditional()) return false;
  std::vector<Val> cloud;
  for (const Val& a : t.alternatives) {
    if (!(a.known() && IsLocalType(a.text))) cloud.push_back(a);
  }
  if (cloud.empty()) return true;
  if (cloud.size() != t.alternatives.size()) {
    SourceRange r = t.range;
    t = Val::OneOf(std::move(cloud), r);
  }
  return false;
}

void SdkModel::InstanceGroups(const std::optional<Ev>& groups, Workload& w) {
  if (!groups || a_.V(groups->v).kind == VK::kNone) return;
  const Value& list = a_.V(groups->v);
  w.instance_type = Val::Absent();
  w.instance_count = Val::Absent();
  if (list.kind != VK::kList || !list.complete || list.items.empty()) {
    w.instance_type = Val::Unknown(a_.R(groups->at));
    return;
  }
  std::vector<Ev> items = list.items;
  for (const Ev& item : items) {
    InstanceGroup g;
    g.range = a_.R(item.at);
    const Value& x = a_.V(item.v);
    if (x.kind == VK::kRecord && x.text == "InstanceGroup") {
      Args a = KeywordArgs(x);
      g.name = ToVal(Arg(a, {"instance_group_name"}));
      g.instance_type = ToVal(Arg(a, {"instance_type"}));
      g.instance_count = ToVal(Arg(a, {"instance_count"}));
      if (!x.complete) w.complete = false;
    } else if (x.kind == VK::kDict) {
      Args a = KeywordArgs(x);
      g.name = ToVal(Arg(a, {"instance_group_name", "InstanceGroupName"}));
      g.instance_type = ToVal(Arg(a, {"instance_type", "InstanceType"}));
      g.instance_count = ToVal(Arg(a, {"instance_count", "InstanceCount"}));
    } else {
      g.instance_type = Val::Unknown(g.range);
      g.instance_count = Val::Unknown(g.range);
    }
    w.instance_groups.push_back(std::move(g));
  }
}

void SdkModel::AddChannel(Workload& w, const std::string& name, const Ev& v) {
  Channel c;
  c.name = name;
  c.range = a_.R(v.at);
  const Value& x = a_.V(v.v);
  if (x.kind == VK::kStr) {
    c.s3_uri = ToVal(v);
  } else if (x.kind == VK::kRecord && x.text == "TrainingInput") {
    Args a = KeywordArgs(x);
    c.s3_uri = ToVal(Arg(a, {"s3_data"}));
    c.distribution = ToVal(Arg(a, {"distribution"}));
    c.input_mode = ToVal(Arg(a, {"input_mode"}));
    c.s3_data_type = ToVal(Arg(a, {"s3_data_type"}));
    if (!x.complete) w.complete = false;
  } else if (x.kind == VK::kRecord && x.text == "FileSystemInput") {
    c.file_system = true;
  } else if (x.kind == VK::kRecord && x.text == "InputData") {
    Args a = KeywordArgs(x);
    auto n = Arg(a, {"channel_name"});
    if (n && a_.V(n->v).kind == VK::kStr) c.name = a_.V(n->v).text;
    auto src = Arg(a, {"data_source"});
    if (!src) return;
    const Value& s = a_.V(src->v);
    if (s.kind == VK::kStr) {
      c.s3_uri = ToVal(src);
    } else if (s.kind == VK::kRecord && s.text == "FileSystemInput") {
      c.file_system = true;
    } else if (s.kind == VK::kRecord && s.text == "S3DataSource") {
      Args d = KeywordArgs(s);
      c.s3_uri = ToVal(Arg(d, {"s3_uri"}));
      c.s3_data_type = ToVal(Arg(d, {"s3_data_type"}));
      c.distribution = ToVal(Arg(d, {"s3_data_distribution_type"}));
    } else {
      return;  // a data source we cannot see: no channel is invented
    }
  } else if (x.kind == VK::kOneOf) {
    bool all_strings =
        std::all_of(x.alts.begin(), x.alts.end(), [&](const Alt& a) { return a_.store_.Kind(a.value.v) == VK::kStr; });
    if (!all_strings) return;
    c.s3_uri = ToVal(v);
  } else {
    return;  // an input we cannot resolve: no channel (it might be FSx, Pipe, …)
  }
  w.channels.push_back(std::move(c));
}

void SdkModel::ChannelsFromInputs(Workload& w, const std::optional<Ev>& inputs) {
  if (!inputs) return;
  const Value& x = a_.V(inputs->v);
  if (x.kind == VK::kDict) {
    std::vector<Entry> entries = x.entries;
    for (const Entry& e : entries) AddChannel(w, e.key, e.value);
  } else if (x.kind == VK::kList) {
    std::vector<Ev> items = x.items;
    for (const Ev& e : items) AddChannel(w, "?", e);
  } else if (x.kind == VK::kStr || x.kind == VK::kRecord || x.kind == VK::kOneOf) {
    AddChannel(w, "training", *inputs);
  }
}

void SdkModel::EstimatorSettings(const Object& o, Workload& w) {
  const Args& a = o.args;
  auto [count_pos, type_pos] = ComputePositions(o);
  w.complete = !a.unknown_spread;
  w.instance_type = ToVal(Arg(a, {"instance_type", "train_instance_type"}, type_pos));
  w.instance_count = ToVal(Arg(a, {"instance_count", "train_instance_count"}, count_pos));
  InstanceGroups(Arg(a, {"instance_groups"}), w);
  w.volume_gb = ToVal(Arg(a, {"volume_size", "train_volume_size"}));
  w.max_run_seconds = ToVal(Arg(a, {"max_run", "train_max_run"}));
  w.max_wait_seconds = ToVal(Arg(a, {"max_wait", "train_max_wait"}));
  w.spot = ToVal(Arg(a, {"use_spot_instances", "train_use_spot_instances"}));
  w.checkpoint = ToVal(Arg(a, {"checkpoint_s3_uri"}));
  w.output_path = ToVal(Arg(a, {"output_path"}));
  w.keep_alive_seconds = ToVal(Arg(a, {"keep_alive_period_in_seconds"}));
  w.input_mode = ToVal(Arg(a, {"input_mode"}));
  if (o.jumpstart && w.instance_type.absent() && w.instance_groups.empty()) {
    w.instance_type = Val::Unknown(w.range, "the JumpStart model's default");
  }
  auto image = Arg(a, {"image_uri", "image_name"}, o.cls == "Estimator" ? 0 : -1);
  w.image = ToVal(image);
  w.framework = o.framework.empty() ? Val::Absent() : Val::Known(o.framework, w.range, "class " + o.cls);
  if (image && o.framework.empty() && !a_.V(image->v).aux.empty() && a_.V(image->v).kind == VK::kOpaque) {
    w.framework = Val::Known(a_.V(image->v).aux, a_.R(image->at), "image_uris.retrieve");
  }
}

void SdkModel::ModelTrainerSettings(const Object& o, Workload& w) {
  const Args& a = o.args;
  w.complete = !a.unknown_spread;
  auto compute = Arg(a, {"compute"});
  if (compute && a_.V(compute->v).kind == VK::kRecord) {
    const Value& h = a_.V(compute->v);
    Args c = KeywordArgs(h);
    w.complete = w.complete && h.complete;
    w.instance_type = ToVal(Arg(c, {"instance_type"}));
    w.instance_count = ToVal(Arg(c, {"instance_count"}));
    InstanceGroups(Arg(c, {"instance_groups"}), w);
    w.volume_gb = ToVal(Arg(c, {"volume_size_in_gb"}));
    w.keep_alive_seconds = ToVal(Arg(c, {"keep_alive_period_in_seconds"}));
    w.spot = ToVal(Arg(c, {"enable_managed_spot_training"}));
  } else if (!compute && (o.jumpstart || o.customization)) {
    // from_jumpstart_config: the JumpStart model's default compute.
    w.instance_type = Val::Unknown(w.range, "the JumpStart model's default");
    w.instance_count = Val::Unknown(w.range, "the JumpStart model's default");
  } else if (!compute) {
    w.instance_type = Val::Known("ml.m5.xlarge", w.range, "ModelTrainer default");
    w.instance_count = Val::Known("1", w.range, "ModelTrainer default");
  } else {
    w.instance_type = Val::Unknown(a_.R(compute->at));
    w.complete = false;
  }
  auto stop = Arg(a, {"stopping_condition"});
  if (stop && a_.V(stop->v).kind == VK::kRecord) {
    Args s = KeywordArgs(a_.V(stop->v));
    w.max_run_seconds = ToVal(Arg(s, {"max_runtime_in_seconds"}));
    w.max_wait_seconds = ToVal(Arg(s, {"max_wait_time_in_seconds"}));
  } else if (!stop) {
    // ModelTrainer's default; a customization trainer's comes from its recipe.
    if (!o.customization) w.max_run_seconds = Val::Known("3600", w.range, "ModelTrainer default");
  } else {
    w.max_run_seconds = Val::Unknown(a_.R(stop->at));
    w.max_wait_seconds = Val::Unknown(a_.R(stop->at));
  }
  auto cp = Arg(a, {"checkpoint_config"});
  if (cp && a_.V(cp->v).kind == VK::kRecord) {
    Args c = KeywordArgs(a_.V(cp->v));
    w.checkpoint = ToVal(Arg(c, {"s3_uri"}));
  } else {
    w.checkpoint = ToVal(cp);
  }
  auto image = Arg(a, {"training_image"});
  w.image = ToVal(image);
  if (image && a_.V(image->v).kind == VK::kOpaque && !a_.V(image->v).aux.empty()) {
    w.framework = Val::Known(a_.V(image->v).aux, a_.R(image->at));
  }
  w.input_mode = ToVal(Arg(a, {"training_input_mode"}));
  ChannelsFromInputs(w, Arg(a, {"input_data_config"}));
}

void SdkModel::EmitTraining(const Object& settings_from, WorkloadKind kind, const std::string& what,
                            const std::string& name, TSNode range_call, const std::vector<Args>& fits) {
  Workload w = Base(kind, range_call, what, name);
  if (settings_from.kind == ObjKind::kModelTrainer) {
    if (auto mode = Arg(settings_from.args, {"training_mode"}); mode && IsLocalValue(mode->v)) return;
    ModelTrainerSettings(settings_from, w);
  } else {
    EstimatorSettings(settings_from, w);
  }
  if (auto session = Arg(settings_from.args, {"sagemaker_session"}); session && IsLocalValue(session->v)) return;
  if (LocalWorkload(w)) return;
  TSNode settings_call = a_.lit_call_;
  for (const Args& fit : fits) {
    a_.lit_call_ = ts_node_is_null(settings_call) ? TSNode{} : fit.call;
    ChannelsFromInputs(w, Arg(fit, {"inputs", "input_data_config"}, 0));
  }
  a_.lit_call_ = settings_call;
  a_.out_->workloads.push_back(std::move(w));
}

void SdkModel::EmitProcessor(const Object& o) {
  const Args& a = o.args;
  auto [count_pos, type_pos] = ComputePositions(o);
  Workload w = Base(WorkloadKind::kProcessingJob, o.call, ClassLabel(o.cls, "processor"), o.var);
  w.complete = !a.unknown_spread;
  w.instance_type = ToVal(Arg(a, {"instance_type"}, type_pos));
  w.instance_count = ToVal(Arg(a, {"instance_count"}, count_pos));
  w.volume_gb = ToVal(Arg(a, {"volume_size_in_gb"}));
  w.image = ToVal(Arg(a, {"image_uri"}, o.cls == "Processor" || o.cls == "ScriptProcessor" ? 1 : -1));
  if (!o.framework.empty()) w.framework = Val::Known(o.framework, w.range, "class " + o.cls);
  if (auto session = Arg(a, {"sagemaker_session"}); session && IsLocalValue(session->v)) return;
  if (LocalWorkload(w)) return;
  int inputs_pos = o.cls == "Processor" ? 0
                   : (o.cls == "ScriptProcessor" || o.cls.ends_with("Processor")) && o.cls != "FrameworkProcessor" &&
                           o.cls != "PySparkProcessor" && o.cls != "SparkJarProcessor"
                       ? 1
                       : -1;
  for (const Args& run : o.fits) {
    auto inputs = Arg(run, {"inputs"}, inputs_pos);
    if (!inputs) continue;
    const Value& list = a_.V(inputs->v);
    if (list.kind != VK::kList) continue;
    std::vector<Ev> items = list.items;
    for (const Ev& in : items) {
      const Value& x = a_.V(in.v);
      if (x.kind != VK::kRecord || x.text != "ProcessingInput") continue;
      Args p = KeywordArgs(x);
      Channel c;
      c.range = a_.R(in.at);
      auto n = Arg(p, {"input_name"});
      c.name = n && a_.V(n->v).kind == VK::kStr ? a_.V(n->v).text : "input";
      c.s3_uri = ToVal(Arg(p, {"source"}));
      c.input_mode = ToVal(Arg(p, {"s3_input_mode"}));
      c.distribution = ToVal(Arg(p, {"s3_data_distribution_type"}));
      c.s3_data_type = ToVal(Arg(p, {"s3_data_type"}));
      c.code = aws::IsCodeInput(ToVal(n), ToVal(Arg(p, {"destination"})));
      w.complete = w.complete && x.complete;
      w.channels.push_back(std::move(c));
    }
  }
  a_.out_->workloads.push_back(std::move(w));
}

void SdkModel::EmitTransformer(const Object& o) {
  const Args& a = o.args;
  Workload w = Base(WorkloadKind::kTransformJob, o.call, "Transformer", o.var);
  w.complete = !a.unknown_spread;
  bool method = o.source >= 0;
  w.instance_count = ToVal(Arg(a, {"instance_count"}, method ? 0 : 1));
  w.instance_type = ToVal(Arg(a, {"instance_type"}, method ? 1 : 2));
  if (LocalWorkload(w)) return;
  if (o.local) return;
  if (o.source >= 0) {
    const Object& src = objects_[o.source];
    if (auto session = Arg(src.args, {"sagemaker_session"}); session && IsLocalValue(session->v)) return;
    SourceImage(src, w);
  }
  a_.out_->workloads.push_back(std::move(w));
}

// Whether the endpoint a deploy made is deleted later in the notebook: "true"
// when a delete that can run names it (its predictor, its name, a name known
// only at run time — which covers every endpoint of the notebook — or every
// endpoint list_endpoints() returns); unknown when a delete that can run may
// name it; else "false", with why the deletes that exist do not count.
Val SdkModel::DeletedState(const Workload& w, const std::vector<int>& objects, const std::vector<std::string>& names,
                           const std::vector<VId>& name_values, Order deployed) const {
  bool unknown = false;
  std::string why;
  // A delete that cannot run > one of it before the deploy > one of another
  // endpoint after the deploy > one of another endpoint before it.
  int why_rank = 0;
  auto note = [&](int rank, std::string text) {
    if (rank > why_rank) {
      why_rank = rank;
      why = std::move(text);
    }
  };
  auto has = [](const auto& list, const auto& x) { return std::find(list.begin(), list.end(), x) != list.end(); };
  for (const Delete& d : deletes_) {
    int names_it = 0;  // 2: this endpoint; 1: perhaps; 0: another one
    std::string other;
    for (int o : d.objects) {
      if (has(objects, o)) {
        names_it = 2;
      } else if (other.empty() && !objects_[o].attached) {  // an attached predictor: its name says which
        // Where it was deployed: the helper's call when a helper deployed it.
        const Object& other_deploy = objects_[o];
        SourceRange at = a_.R(ts_node_is_null(other_deploy.via) ? other_deploy.call : other_deploy.via);
        other = "the endpoint deployed " +
                (a_.nb_ ? "in cell " + std::to_string(at.cell) + " line " + std::to_string(at.cell_line)
                        : "at line " + std::to_string(at.begin.line));
      }
    }
    for (const std::string& n : d.names) {
      if (has(names, n))
        names_it = 2;
      else if (names.empty() && !endpoint_names_.count(n))
        names_it = std::max(names_it, 1);  // perhaps the name this deploy's unknown name has
      else if (other.empty())
        other = "endpoint '" + n + "'";
    }
    if (!d.name_values.empty()) names_it = 2;  // a name known only at run time: every endpoint of the notebook
    for (VId v : d.object_name_values) {
      if (has(name_values, v)) names_it = 2;  // a predictor deployed to this endpoint, by its name
    }
    if (d.all) {
      if (d.contains.empty()) names_it = 2;
      for (const std::string& n : names) {
        if (n.find(d.contains) != std::string::npos) names_it = 2;
      }
      if (names.empty()) names_it = std::max(names_it, 1);
    }
    if (d.unknown) names_it = std::max(names_it, 1);
    bool after = deployed < d.order;
    if (names_it == 0) {
      if (!other.empty()) note(after ? 2 : 1, "the delete " + Where(d.at) + " deletes " + other + ", not this one");
      continue;
    }
    if (!d.dead.empty()) {
      note(4, "the delete " + Where(d.at) + " " + d.dead);
      continue;
    }
    if (!after) {
      note(3, "the delete " + Where(d.at) + " runs before this deploy");
      continue;
    }
    if (names_it == 2) return Val::Known("true", w.range);
    unknown = true;
  }
  if (unknown) return Val::Unknown(w.range);
  return Val::Known("false", w.range, why);
}

// The endpoint names a deploy's `endpoint_name` (or EndpointName) gives: a
// literal or shared name by text, a name known only at run time by value.
void SdkModel::EndpointNames(const std::optional<Ev>& e, std::vector<std::string>* names,
                             std::vector<VId>* values) const {
  if (!e) return;
  std::vector<VId> vals = {e->v};
  if (a_.store_.Kind(e->v) == VK::kOneOf) {
    vals.clear();
    for (const Alt& alt : a_.V(e->v).alts) vals.push_back(alt.value.v);
  }
  for (VId v : vals) {
    const Value& x = a_.V(v);
    if (x.kind == VK::kStr) {
      names->push_back(x.text);
    } else if (std::string shared = SharedName(v); !shared.empty()) {
      names->push_back(shared);
    } else if (x.kind == VK::kOpaque) {
      values->push_back(v);
    }
  }
}

void SdkModel::EmitPredictor(int id) {
  const Object& p = objects_[id];
  if (p.attached) return;
  const Args& a = p.args;
  const Object* src = p.source >= 0 ? &objects_[p.source] : nullptr;
  const Object* builder = src && src->kind == ObjKind::kModelBuilder ? src : nullptr;
  if (src && src->kind == ObjKind::kModel && src->source >= 0 && objects_[src->source].kind == ObjKind::kModelBuilder) {
    builder = &objects_[src->source];
  }
  // ModelBuilder.deploy(inference_config=BatchTransformInferenceConfig(...)) runs a batch transform.
  if (auto ic = Arg(a, {"inference_config"});
      ic && a_.V(ic->v).kind == VK::kRecord && a_.V(ic->v).text == "BatchTransformInferenceConfig") {
    Workload t = Base(WorkloadKind::kTransformJob, p.call, "Transformer", p.var);
    Args c = KeywordArgs(a_.V(ic->v));
    t.complete = !a.unknown_spread && a_.V(ic->v).complete;
    t.instance_count = ToVal(Arg(c, {"instance_count"}));
    t.instance_type = ToVal(Arg(c, {"instance_type"}));
    if (src) SourceImage(*src, t);
    if (!LocalWorkload(t)) a_.out_->workloads.push_back(std::move(t));
    return;
  }
  auto endpoint = Arg(a, {"endpoint_name"}, builder && src == builder ? 0 : -1);
  std::string name = !p.var.empty()                                             ? p.var
                     : a_.V(endpoint ? endpoint->v : kUnknown).kind == VK::kStr ? a_.V(endpoint->v).text
                                                                                : "";
  Workload w =
      Base(WorkloadKind::kEndpointVariant, p.call, "endpoint variant", name.empty() ? "" : name + "/AllTraffic");
  w.complete = !a.unknown_spread;
  bool builder_deploy = builder && src == builder;
  w.instance_type = ToVal(Arg(a, {"instance_type"}, builder_deploy ? -1 : 1));
  w.instance_count = ToVal(Arg(a, {"initial_instance_count"}, builder_deploy ? -1 : 0));
  if (builder) {
    // The builder's instance type: its own argument, its Compute, or what optimize() targeted.
    std::optional<Ev> compute = Arg(builder->args, {"compute"});
    Args c = compute && a_.V(compute->v).kind == VK::kRecord ? KeywordArgs(a_.V(compute->v)) : Args{};
    if (w.instance_type.absent()) w.instance_type = ToVal(Arg(builder->args, {"instance_type"}));
    // Deployed by whichever of several builders the code chose at run time: their instance type when
    // they all name the same one, else unknown.
    if (w.instance_type.present() && !Arg(a, {"instance_type"})) {
      for (const Object* o : {&p, src}) {
        for (int other : o->chosen_from) {
          const Object* b = &objects_[other];
          if (b->kind == ObjKind::kModel && b->source >= 0) b = &objects_[b->source];
          Val t = ToVal(Arg(b->args, {"instance_type"}));
          if (!t.known() || !w.instance_type.known() || t.text != w.instance_type.text) {
            w.instance_type = Val::Unknown(w.range, "the instance type of the builder chosen at run time");
          }
        }
      }
    }
    if (w.instance_type.absent()) w.instance_type = ToVal(Arg(c, {"instance_type"}));
    for (const Object* o : {src, builder}) {
      for (const Args& b : o->builds) {
        if (auto t = Arg(b, {"instance_type"}); t && w.instance_type.absent()) w.instance_type = ToVal(t);
      }
    }
    if (w.instance_count.absent()) w.instance_count = ToVal(Arg(c, {"instance_count"}));
    if (compute && a_.V(compute->v).kind != VK::kRecord && a_.V(compute->v).kind != VK::kNone &&
        w.instance_type.absent()) {
      w.instance_type = Val::Unknown(a_.R(compute->at));
    }
    if (builder->recommended && w.instance_type.absent()) {
      w.instance_type = Val::Unknown(w.range, "the inference recommendation's instance type");
    }
    if (builder->recommended && w.instance_count.absent()) {
      w.instance_count = Val::Unknown(w.range, "the inference recommendation's instance count");
    }
    // Named nowhere: ModelBuilder picks one when it deploys (not serverless or a transform).
    if (w.instance_type.absent() && !Arg(a, {"inference_config", "serverless_inference_config"})) {
      w.instance_type = Val::Unknown(w.range, "ModelBuilder's choice at deploy time");
    }
  }
  // A JumpStart model that names no instance type deploys on its default one.
  if (w.instance_type.absent()) {
    if (src && src->kind == ObjKind::kModel && src->jumpstart)
      w.instance_type = ToVal(Arg(src->args, {"instance_type"}));
    int guard = 0;
    for (int s = p.source; s >= 0 && guard++ < 8 && w.instance_type.absent(); s = objects_[s].source) {
      if (objects_[s].jumpstart) w.instance_type = Val::Unknown(w.range, "the JumpStart model's default");
    }
  }
  w.accelerator_type = ToVal(Arg(a, {"accelerator_type"}));
  auto config = [&](std::string_view key) -> std::optional<Ev> {
    auto c = Arg(a, {key});
    if (c) return c;
    // SDK v3: inference_config=ServerlessInferenceConfig(...) / AsyncInferenceConfig(...).
    auto ic = Arg(a, {"inference_config"});
    if (ic && a_.V(ic->v).kind == VK::kRecord &&
        a_.V(ic->v).text ==
            (key == "serverless_inference_config" ? "ServerlessInferenceConfig" : "AsyncInferenceConfig")) {
      return ic;
    }
    return std::nullopt;
  };
  if (auto s = config("serverless_inference_config"); s && a_.V(s->v).kind != VK::kNone) {
    w.serverless = a_.V(s->v).kind == VK::kRecord ? Val::Known("true", a_.R(s->at)) : Val::Unknown(a_.R(s->at));
  }
  if (auto s = config("async_inference_config"); s && a_.V(s->v).kind != VK::kNone) {
    w.async_inference = a_.V(s->v).kind == VK::kRecord ? Val::Known("true", a_.R(s->at)) : Val::Unknown(a_.R(s->at));
  }
  // Local mode: a local instance type, a local session, ModelBuilder / deploy mode LOCAL_CONTAINER.
  if (LocalWorkload(w) || p.local) return;
  if (auto mode = Arg(a, {"mode"}); mode && IsLocalValue(mode->v)) return;
  int guard = 0;
  for (int s = p.source; s >= 0 && guard++ < 8; s = objects_[s].source) {
    const Object& o = objects_[s];
    if (auto session = Arg(o.args, {"sagemaker_session"}); session && IsLocalValue(session->v)) return;
    if (auto mode = Arg(o.args, {"mode"}); mode && IsLocalValue(mode->v)) return;
    for (const Args& b : o.builds) {
      if (auto mode = Arg(b, {"mode"}); mode && IsLocalValue(mode->v)) return;
    }
    if (o.kind == ObjKind::kModelTrainer) {
      if (auto mode = Arg(o.args, {"training_mode"}); mode && IsLocalValue(mode->v)) return;
    }
    if ((o.kind == ObjKind::kEstimator || o.kind == ObjKind::kModel) && w.instance_type.absent()) {
      // A deploy that names no instance type follows a local-mode estimator.
      auto t = Arg(o.args, {"instance_type", "train_instance_type"});
      if (t && a_.V(t->v).kind == VK::kStr && IsLocalType(a_.V(t->v).text)) return;
    }
  }
  w.variant_name = Val::Known("AllTraffic", w.range);
  std::vector<std::string> names;
  std::vector<VId> name_values;
  EndpointNames(endpoint, &names, &name_values);
  if (endpoint && a_.V(endpoint->v).kind == VK::kStr) w.endpoint_name = ToVal(endpoint);
  // A name shared with the other notebooks (`%store`): the endpoint is known by it there.
  for (const auto& [shared, v] : a_.stored_) {
    const Value& x = a_.V(v);
    bool same = ((IsObject(x) || IsRef(x)) && x.ref == id) ||
                std::find(name_values.begin(), name_values.end(), v) != name_values.end() ||
                (x.kind == VK::kStr && std::find(names.begin(), names.end(), x.text) != names.end());
    if (same && std::find(names.begin(), names.end(), shared) == names.end()) names.push_back(shared);
  }
  for (const std::string& n : names) w.keys.push_back(aws::VariantKey(aws::EndpointKey(n), "AllTraffic"));
  w.keys.push_back(aws::VariantKey(p.key, "AllTraffic"));
  if (src) SourceImage(*src, w);
  if (a_.nb_) w.deleted = DeletedState(w, {id}, names, name_values, p.order);
  w.delete_statement = PredictorDeleteStatement(id, &w.delete_capture, &w.delete_capture_at);
  a_.out_->workloads.push_back(std::move(w));
}

// A @remote function or a RemoteExecutor: a training job per call, as its
// decorator or constructor configures it (SDK defaults where it does not).
void SdkModel::EmitRemote(const Object& o) {
  const Args& a = o.args;
  Workload w = Base(WorkloadKind::kTrainingJob, o.call, o.cls.starts_with("@") ? o.cls + " function" : o.cls, o.var);
  std::string defaults = (o.cls == "@step" ? "@step" : "@remote") + std::string(" default");
  w.complete = !a.unknown_spread;
  auto type = Arg(a, {"instance_type"});
  w.instance_type = type ? ToVal(type) : Val::Unknown(w.range, "the SageMaker configuration file's default");
  auto count = Arg(a, {"instance_count"});
  w.instance_count = count ? ToVal(count) : Val::Known("1", w.range, defaults);
  w.volume_gb = ToVal(Arg(a, {"volume_size"}));
  w.spot = ToVal(Arg(a, {"use_spot_instances"}));
  w.max_wait_seconds = ToVal(Arg(a, {"max_wait_time_in_seconds"}));
  auto run = Arg(a, {"max_runtime_in_seconds"});
  w.max_run_seconds = run ? ToVal(run) : Val::Known("86400", w.range, defaults);
  w.keep_alive_seconds = ToVal(Arg(a, {"keep_alive_period_in_seconds"}));
  w.image = ToVal(Arg(a, {"image_uri"}));
  // A CheckpointLocation argument of a call: where the job checkpoints (its path may be unknown).
  if (auto cp = Arg(a, {"checkpoint_location"})) {
    Args c = KeywordArgs(a_.V(cp->v));
    auto uri = Arg(c, {"s3_uri"});
    w.checkpoint = uri ? ToVal(uri) : Val::Unknown(a_.R(cp->at));
  }
  if (auto session = Arg(a, {"sagemaker_session"}); session && IsLocalValue(session->v)) return;
  if (LocalWorkload(w)) return;
  // A @step function whose steps only pipelines under a local session run: it runs on this machine.
  if (o.local_pipelines > 0 && o.cloud_pipelines == 0) return;
  a_.out_->workloads.push_back(std::move(w));
}

// The endpoints this notebook deletes, for the other notebooks of its
// directory: by literal or shared name, or every endpoint it lists. A name
// known only at run time counts for this notebook alone.
void SdkModel::WorkflowDeletes() {
  std::set<std::string> out;
  for (const Delete& d : deletes_) {
    if (!d.dead.empty()) continue;
    for (const std::string& n : d.names) out.insert(n);
    if (d.all) out.insert("*" + d.contains);
  }
  a_.out_->workflow_deletes.assign(out.begin(), out.end());
}

// The framework / image of the model or estimator a deploy or transformer uses.
void SdkModel::SourceImage(const Object& src, Workload& w) {
  const Args& a = src.args;
  auto image = src.kind == ObjKind::kModelTrainer ? Arg(a, {"training_image"})
                                                  : Arg(a, {"image_uri", "image_name", "image"},
                                                        src.cls == "Model" || src.cls == "Estimator" ? 0 : -1);
  w.image = ToVal(image);
  if (!src.framework.empty()) {
    w.framework = Val::Known(src.framework, w.range, "class " + src.cls);
  } else if (image && a_.V(image->v).kind == VK::kOpaque && !a_.V(image->v).aux.empty()) {
    w.framework = Val::Known(a_.V(image->v).aux, a_.R(image->at), "image_uris.retrieve");
  }
}

// ---- boto3 ---------------------------------------------------------------------

cfn::Node SdkModel::RequestNode(const Args& a, bool* complete) {
  *complete = !a.unknown_spread;
  a_.lit_call_ = a.call;
  cfn::Node root;
  root.kind = cfn::Node::Kind::kMap;
  root.pos = a_.R(a.call).begin;
  // Each request field is expanded up to its own budget (a huge value in one
  // field leaves the others readable), and the request as a whole up to 100000 nodes.
  long total = 100000;
  for (const auto& [k, e] : a.keywords) {
    long budget = std::min<long>(20000, total);
    long before = budget;
    root.entries.emplace_back(k, ToNode(e, complete, 0, &budget));
    total -= before - std::max<long>(budget, 0);
    root.key_pos.push_back(a_.R(e.at).begin);
  }
  a_.lit_call_ = {};
  return root;
}

// A request value as the PascalCase mapper reads it. Shared sub-values are
// expanded here, so the expansion has a budget (a nested self-referencing
// constant must not blow up).
cfn::Node SdkModel::ToNode(const Ev& e, bool* complete, int depth, long* budget) {
  cfn::Node n;
  n.pos = a_.R(e.at).begin;
  const Value& v = a_.V(e.v);
  if (depth > 32 || --*budget < 0) {
    *complete = false;
    n.kind = cfn::Node::Kind::kScalar;
    n.text = std::string(kUnknownMarker);
    return n;
  }
  switch (v.kind) {
    case VK::kDict:
      n.kind = cfn::Node::Kind::kMap;
      if (!v.complete) *complete = false;
      for (const Entry& x : v.entries) {
        n.entries.emplace_back(x.key, ToNode(x.value, complete, depth + 1, budget));
        n.key_pos.push_back(a_.R(x.value.at).begin);
      }
      return n;
    case VK::kList:
      n.kind = cfn::Node::Kind::kSeq;
      if (!v.complete) *complete = false;
      for (const Ev& x : v.items) n.items.push_back(ToNode(x, complete, depth + 1, budget));
      return n;
    case VK::kNone:
      n.kind = cfn::Node::Kind::kNull;
      return n;
    default:
      n.kind = cfn::Node::Kind::kScalar;
      n.text = v.scalar() ? v.text : std::string(kUnknownMarker);
      if (reading_ && tainted_nodes_ && reading_->count(e.v)) tainted_nodes_->insert({n.pos.line, n.pos.column});
      n.tag = v.origin;  // carried to the value function as `origin`
      if (v.kind == VK::kStr && !v.aux.empty()) n.tag = "script:" + v.aux;
      if (v.kind == VK::kStr || v.kind == VK::kNum) {
        if (SourceRange lit = a_.LiteralSite(e); lit.valid()) request_literals_[{n.pos.line, n.pos.column}] = lit;
      }
      return n;
  }
}

Val SdkModel::Script(const cfn::Node* hooks) {
  if (!hooks) return Val::Absent();
  if (!hooks->is_seq()) return Val::Unknown({hooks->pos, hooks->pos});
  std::string text;
  for (const cfn::Node& h : hooks->items) {
    const cfn::Node* content = h.Get("Content");
    if (!content || !content->is_scalar() || content->text == kUnknownMarker) {
      return Val::Unknown({h.pos, h.pos}, "script not resolvable");
    }
    if (content->tag.rfind("script:", 0) == 0) {
      text += content->tag.substr(7);
      continue;
    }
    bool ok = false;
    std::string decoded = Base64Decode(content->text, &ok);
    if (!ok) return Val::Unknown({content->pos, content->pos}, "content is not base64");
    text += decoded;
  }
  return Val::Known(text, {hooks->pos, hooks->pos}, "decoded script");
}

// The create_endpoint and update_endpoint calls of the file, each with what its
// request names (`requests`: every client call's request, by index).
std::vector<SdkModel::BotoEndpointCall> SdkModel::EndpointCalls(const std::vector<cfn::Node>& requests,
                                                                const aws::ValueFn& value) const {
  std::vector<BotoEndpointCall> endpoints;
  for (size_t i = 0; i < client_calls_.size(); ++i) {
    const ClientCall& c = client_calls_[i];
    // update_endpoint applies a configuration to an endpoint as create_endpoint does.
    if ((c.method != "create_endpoint" && c.method != "update_endpoint") || c.service != "sagemaker") continue;
    const cfn::Node& req = requests[i];
    BotoEndpointCall e;
    e.name = value(req.Get("EndpointName"));
    e.config = value(req.Get("EndpointConfigName"));
    if (auto n = Arg(c.args, {"EndpointName"})) e.name_v = n->v;
    if (auto n = Arg(c.args, {"EndpointConfigName"})) e.config_v = n->v;
    e.order = c.order;
    e.call = c.args.call;
    e.update = c.method == "update_endpoint";
    if (auto n = Arg(c.args, {"EndpointName"});
        n && !e.name.known() && (g_.Kind(n->at) == N::kIdentifier || g_.Kind(n->at) == N::kAttribute)) {
      e.name_text = std::string(a_.T(n->at));
    } else if (e.name.known()) {
      e.name_text = e.name.text;
    }
    endpoints.push_back(std::move(e));
  }
  return endpoints;
}

// The variants of the endpoint configuration client call `i` creates (boto3
// create_endpoint_config): each a workload, deleted or not as the endpoints
// made from it are (`endpoints`).
void SdkModel::EmitEndpointConfigVariants(size_t i, const std::vector<cfn::Node>& requests,
                                          const std::vector<BotoEndpointCall>& endpoints, const aws::Resource& resource,
                                          const std::string& label, const aws::ValueFn& value,
                                          std::vector<Workload>* out) {
  const ClientCall& c = client_calls_[i];
  const cfn::Node& req = requests[i];
  const aws::Resource* res = &resource;
  const char* config_key = res->name_property.data();
  Val config = value(req.Get(config_key));
  auto config_arg = Arg(c.args, {config_key});
  // The endpoints created from this configuration.
  std::vector<const BotoEndpointCall*> deploys;
  for (const BotoEndpointCall& e : endpoints) {
    bool same = (config.known() && e.config.known() && config.text == e.config.text) ||
                (config_arg && config_arg->v == e.config_v && a_.store_.Kind(e.config_v) == VK::kOpaque);
    if (same) deploys.push_back(&e);
  }
  // What the configuration is called in the code: its literal name, the
  // variable that holds it, else the endpoint's, else the call.
  std::string config_name = config.known() ? config.text : std::string();
  if (config_name.empty() && config_arg &&
      (g_.Kind(config_arg->at) == N::kIdentifier || g_.Kind(config_arg->at) == N::kAttribute)) {
    config_name = std::string(a_.T(config_arg->at));
  }
  if (config_name.empty() && !deploys.empty()) config_name = deploys.front()->name_text;
  if (config_name.empty()) config_name = CallText(c.args.call);
  // A configuration only ever applied by update_endpoint to an endpoint this notebook created from
  // another of its configurations: that configuration's variants report the endpoint already
  // (one SM213, one inventory row), so this one adds none.
  auto created_here = [&](const BotoEndpointCall& c) {
    for (size_t j = 0; j < client_calls_.size(); ++j) {
      if (client_calls_[j].method != res->boto3 || client_calls_[j].service != "sagemaker") continue;
      Val other = value(requests[j].Get(config_key));
      auto other_arg = Arg(client_calls_[j].args, {config_key});
      if ((other.known() && c.config.known() && other.text == c.config.text) ||
          (other_arg && other_arg->v == c.config_v && a_.store_.Kind(c.config_v) == VK::kOpaque)) {
        return true;
      }
    }
    return false;
  };
  auto reported_elsewhere = [&](const BotoEndpointCall* e) {
    return e->update && std::any_of(endpoints.begin(), endpoints.end(), [&](const BotoEndpointCall& c) {
             bool same_endpoint = !c.update && ((c.name.known() && e->name.known() && c.name.text == e->name.text) ||
                                                (a_.store_.Kind(c.name_v) == VK::kOpaque && c.name_v == e->name_v));
             bool same_config = (config.known() && c.config.known() && config.text == c.config.text) ||
                                (config_arg && config_arg->v == c.config_v);
             return same_endpoint && !same_config && created_here(c);
           });
  };
  bool replacement = !deploys.empty() && std::all_of(deploys.begin(), deploys.end(), reported_elsewhere);
  std::vector<const cfn::Node*> variants;
  for (const aws::ListProperty& list : res->variants) {
    const cfn::Node* items = req.Get(list.property);
    if (!(list.read_by & aws::kReadByBoto3) || !items || !items->is_seq() || replacement) continue;
    for (const cfn::Node& v : items->items) variants.push_back(&v);
  }
  int index = 0;
  for (const cfn::Node* vp : variants) {
    const cfn::Node& v = *vp;
    ++index;
    Workload w = Base(res->kind, c.args.call, std::string(res->label), "");
    for (const aws::Field& f : res->fields) w.*f.member = value(v.Get(f.property));
    const Val& vname = w.variant_name;
    std::string name = config_name + "/" + (vname.known() ? vname.text : "variant " + std::to_string(index));
    w.name = name;
    w.label = label + " variant '" + name + "'";
    if (const cfn::Node* s = v.Get("ServerlessConfig")) w.serverless = Val::Known("true", {s->pos, s->pos});
    if (const cfn::Node* m = v.Get("ManagedInstanceScaling")) w.managed_scaling = value(m->Get("Status"));
    if (const cfn::Node* as = req.Get("AsyncInferenceConfig")) {
      w.async_inference = Val::Known("true", {as->pos, as->pos});
    }
    bool created = false, any_unknown = false, updated_and_deleted = false;
    std::string delete_statement;
    bool deletable = true;  // every endpoint made from it has a delete statement
    std::optional<Val> not_deleted;
    for (const BotoEndpointCall* e : deploys) {
      std::vector<std::string> names;
      std::vector<VId> values;
      if (e->name.known()) {
        names.push_back(e->name.text);
      } else if (std::string shared = SharedName(e->name_v); !shared.empty()) {
        names.push_back(shared);
      } else if (a_.store_.Kind(e->name_v) == VK::kOpaque) {
        values.push_back(e->name_v);
      }
      for (const auto& [shared, sv] : a_.stored_) {
        bool same =
            std::find(values.begin(), values.end(), sv) != values.end() ||
            (a_.store_.Kind(sv) == VK::kStr && std::find(names.begin(), names.end(), a_.V(sv).text) != names.end());
        if (same) names.push_back(shared);
      }
      if (vname.known()) {
        for (const std::string& n : names) w.keys.push_back(aws::VariantKey(aws::EndpointKey(n), vname.text));
      }
      if (e->name.known()) w.endpoint_name = e->name;
      Val d = DeletedState(w, {}, names, values, e->order);
      d.range = a_.R(e->call);  // reported at create_endpoint
      // An endpoint updated to this configuration is the notebook's own when the
      // notebook created it; otherwise it existed before (not a deploy of the
      // notebook), and only a delete of it here tells something.
      bool own = !e->update || std::any_of(endpoints.begin(), endpoints.end(), [&](const BotoEndpointCall& c) {
        return !c.update && ((c.name.known() && e->name.known() && c.name.text == e->name.text) ||
                             (a_.store_.Kind(c.name_v) == VK::kOpaque && c.name_v == e->name_v));
      });
      if (!own) {
        if (d.known() && d.text == "true") updated_and_deleted = true;
        continue;
      }
      created = true;
      std::string statement = e->name.known() ? ClientDeleteStatement(e->call, e->name.text)
                                              : RunTimeNameDeleteStatement(e->call, e->name_text, e->name_v);
      if (statement.empty()) deletable = false;
      if (delete_statement.find(statement) == std::string::npos) {
        delete_statement += (delete_statement.empty() ? "" : "\n") + statement;
      }
      if (d.unknown())
        any_unknown = true;
      else if (d.text == "false" && !not_deleted)
        not_deleted = d;
    }
    // A deployed variant whose endpoint name is known only at run time is
    // still itself for autoscaling links (SM211: unknown is not registered).
    if (!deploys.empty())
      w.keys.push_back(
          aws::VariantKey(aws::ResourceKey(a_.file_.path, config_name + "@" + std::to_string(w.range.begin.line) + ":" +
                                                              std::to_string(w.range.begin.column)),
                          vname.known() ? vname.text : std::to_string(index)));
    if (a_.nb_ && created) {
      w.deleted = not_deleted ? *not_deleted : any_unknown ? Val::Unknown(w.range) : Val::Known("true", w.range);
    } else if (a_.nb_ && updated_and_deleted) {
      w.deleted = Val::Known("true", w.range);
    }
    if (created && deletable) w.delete_statement = delete_statement;
    out->push_back(std::move(w));
  }
}

void SdkModel::EmitClientCalls() {
  // A request value written as a literal in the call (or as a constant read
  // only there) keeps its literal site.
  // Per call: the request values that came from a helper call's arguments (by position).
  std::vector<std::set<std::pair<int, int>>> tainted(client_calls_.size());
  const std::set<std::pair<int, int>>* reading_call = nullptr;
  aws::ValueFn value = [this, &reading_call](const cfn::Node* n) {
    if (n && reading_call && reading_call->count({n->pos.line, n->pos.column})) read_arg_ = true;
    Val v = aws::PlainValue(n);
    if (n && v.known()) {
      if (auto it = request_literals_.find({n->pos.line, n->pos.column}); it != request_literals_.end()) {
        v.literal = it->second;
      }
    }
    return v;
  };
  // Each call's request, built once: the endpoint pass and the workload pass both read it.
  std::vector<cfn::Node> requests(client_calls_.size());
  std::vector<bool> complete(client_calls_.size(), true);
  for (size_t i = 0; i < client_calls_.size(); ++i) {
    bool whole = true;
    int run = client_calls_[i].run;
    reading_ = run >= 0 ? &a_.run_args_[static_cast<size_t>(run)] : nullptr;
    tainted_nodes_ = &tainted[i];
    requests[i] = RequestNode(client_calls_[i].args, &whole);
    reading_ = nullptr;
    tainted_nodes_ = nullptr;
    complete[i] = whole;
  }
  std::vector<BotoEndpointCall> endpoints = EndpointCalls(requests, value);
  for (size_t i = 0; i < client_calls_.size(); ++i) {
    const ClientCall& c = client_calls_[i];
    const cfn::Node& req = requests[i];
    reading_call = &tainted[i];
    read_arg_ = false;
    // A label: not something the workload reads. A name the call passes is
    // named as the helper writes it where the workload is reported once.
    std::string own_name;
    auto request_name = [&](const char* key) {
      bool read = read_arg_;
      read_arg_ = false;
      std::string name = RequestName(c.args, key, value(req.Get(key)));
      if (read_arg_) own_name = RequestName(c.args, key, Val::Unknown());
      read_arg_ = read;
      return name;
    };
    std::string label = c.api.empty() ? "boto3 " + c.method : c.api;
    std::vector<Workload> made;
    // The request's resource (parsers/aws/resources.cc); register_scalable_target is
    // Application Auto Scaling's, every other one SageMaker's.
    const aws::Resource* res = aws::ResourceOfBoto3(c.method);
    bool scalable_target = res && res->type == aws::ResourceType::kScalableTarget;
    if (res && c.service == "sagemaker" && !scalable_target) {
      if (res->request != aws::RequestKind::kNone) {
        Workload base = Base(WorkloadKind::kTrainingJob, c.args.call, label, request_name(res->name_property.data()));
        aws::MapRequest(res->request, req, value, base, &made);
        if (res->request == aws::RequestKind::kTraining) {
          for (Workload& w : made) w.output_path = value(req.Find({"OutputDataConfig", "S3OutputPath"}));
        }
      } else if (res->type == aws::ResourceType::kNotebookInstance) {
        Workload w = Base(res->kind, c.args.call, label, request_name(res->name_property.data()));
        for (const aws::Field& f : res->fields) w.*f.member = value(req.Get(f.property));
        if (w.lifecycle_config.known()) w.refs.push_back(aws::LifecycleConfigKey(w.lifecycle_config.text));
        for (const aws::Field& f : res->list_heads) {
          if (const cfn::Node* list = req.Get(f.property); list && list->is_seq() && !list->items.empty()) {
            w.*f.member = value(&list->items[0]);
          }
        }
        made.push_back(std::move(w));
      } else if (res->type == aws::ResourceType::kLifecycleConfig) {
        Workload w = Base(res->kind, c.args.call, label, request_name(res->name_property.data()));
        Val name = value(req.Get(res->name_property));
        if (name.known()) w.keys.push_back(aws::LifecycleConfigKey(name.text));
        for (const aws::Field& f : res->scripts) w.*f.member = Script(req.Get(f.property));
        made.push_back(std::move(w));
      } else if (res->type == aws::ResourceType::kEndpointConfig) {
        EmitEndpointConfigVariants(i, requests, endpoints, *res, label, value, &made);
      }
    } else if (scalable_target && c.service != "sagemaker") {
      Workload w = Base(res->kind, c.args.call, label, request_name(res->name_property.data()));
      for (const aws::Field& f : res->fields) w.*f.member = value(req.Get(f.property));
      // A resource ID naming a predictor's endpoint (f"endpoint/{p.endpoint_name}/variant/AllTraffic").
      if (auto id = Arg(c.args, {"ResourceId"})) {
        const Value& x = a_.V(id->v);
        if (auto parts = aws::SplitVariantResourceId(x.kind == VK::kStr ? x.text : x.link)) {
          const auto& [endpoint, variant] = *parts;
          if (variant.find(kUnknownMarker) == std::string::npos && variant.find(kLinkMark) == std::string::npos) {
            if (endpoint.size() > 2 && endpoint.front() == kLinkMark && endpoint.back() == kLinkMark &&
                endpoint.find(kLinkMark, 1) == endpoint.size() - 1) {
              w.refs.push_back(aws::VariantKey(endpoint.substr(1, endpoint.size() - 2), variant));
            } else if (endpoint.find(kLinkMark) == std::string::npos &&
                       endpoint.find(kUnknownMarker) == std::string::npos) {
              w.refs.push_back(aws::VariantKey(aws::EndpointKey(endpoint), variant));
            }
          }
        }
      }
      made.push_back(std::move(w));
    }
    bool reads = read_arg_;
    reading_call = nullptr;
    int k = 0;
    for (Workload& w : made) {
      if (!complete[i]) w.complete = false;
      if (LocalWorkload(w)) continue;
      if (!ts_node_is_null(c.via)) {
        helper_made_.push_back(
            {a_.out_->workloads.size(), c.via, c.helper, reads, ts_node_start_byte(c.args.call), k++, {}, {}, -1});
        if (!own_name.empty()) {
          helper_made_.back().own_name = own_name;
          helper_made_.back().own_label = label + " '" + own_name + "'";
        }
      }
      a_.out_->workloads.push_back(std::move(w));
    }
  }
}

// ---- all workloads ---------------------------------------------------------------

// A training job exists where it is submitted (rules/SM401.md, docs/python.md): an
// estimator or trainer with no fit()/train() we saw is still one when the code hands
// it on — an argument, a return value, an element, anything but an attribute read —
// since what receives it may submit it. One whose every use is `x.attr` (its
// `.train()` commented out, or only where the call is expected to fail) is none.
bool SdkModel::Submitted(const Object& o) const {
  if (!o.fits.empty() || o.tuned || ts_node_is_null(o.call)) return true;
  auto attribute_use = [&](TSNode x) {
    TSNode p = ts_node_parent(x);
    if (g_.Kind(p) != N::kAttribute || !ts_node_eq(g_.Field(p, g_.f_object), x)) return false;
    // `est.fit` handed over uncalled (`run(est.fit)`) is a submission.
    std::string_view attr = a_.T(g_.Field(p, g_.f_attribute));
    TSNode call = ts_node_parent(p);
    bool called = g_.Kind(call) == N::kCall && ts_node_eq(g_.Field(call, g_.f_function), p);
    return called || (attr != "fit" && attr != "train" && attr != "tune");
  };
  // Text is read from this file's source: an object another module made is kept.
  if (o.call.tree != a_.root_.tree) return true;
  if (o.var.empty()) {
    // `Estimator(...)` as a statement of its own is dropped as soon as it is made.
    return g_.Kind(ts_node_parent(o.call)) != N::kExpressionStatement && !attribute_use(o.call);
  }
  bool handed_on = false;
  WalkTree(ts_tree_root_node(o.call.tree), [&](TSNode x) {
    if (g_.Kind(x) == N::kIdentifier && a_.T(x) == o.var) {
      TSNode p = ts_node_parent(x);
      N pk = g_.Kind(p);
      bool binding = (pk == N::kAssignment && ts_node_eq(g_.Field(p, g_.f_left), x)) ||
                     (pk == N::kKeywordArgument && ts_node_eq(g_.Field(p, g_.f_name), x)) ||
                     (pk == N::kAttribute && ts_node_eq(g_.Field(p, g_.f_attribute), x));
      if (!binding && !attribute_use(x)) handed_on = true;
    }
    return !handed_on;
  });
  return handed_on;
}

// The workloads of object `i` (the kinds that make one).
void SdkModel::EmitObject(size_t i) {
  const Object& o = objects_[i];
  switch (o.kind) {
    case ObjKind::kEstimator:
      // An estimator only tuned is reported as the tuning job.
      if ((!o.tuned || o.fit_directly) && Submitted(o)) {
        EmitTraining(o, WorkloadKind::kTrainingJob, ClassLabel(o.cls, "estimator"), o.var, o.call, o.fits);
      }
      break;
    case ObjKind::kModelTrainer:
      // A customization trainer runs a training job only on TrainingJobCompute (a Compute).
      if (o.customization) {
        auto compute = Arg(o.args, {"compute"});
        if (!compute || a_.V(compute->v).kind != VK::kRecord ||
            (a_.V(compute->v).text != "Compute" && a_.V(compute->v).text != "TrainingJobCompute")) {
          break;
        }
      }
      if ((!o.tuned || !o.fits.empty()) && Submitted(o)) {
        EmitTraining(o, WorkloadKind::kTrainingJob, o.cls, o.var, o.call, o.fits);
      }
      break;
    case ObjKind::kTuner:
      if (o.source >= 0) {
        size_t first = a_.out_->workloads.size();
        EmitTraining(objects_[o.source], WorkloadKind::kTuningJob, "HyperparameterTuner", o.var, o.call, o.fits);
        // Its Spot setting is the estimator's (rules/SM401.md): a fix adds it
        // to the estimator's call, where that call is written in this file.
        if (a_.out_->workloads.size() > first && !ts_node_is_null(a_.lit_call_) && a_.trees_.empty() &&
            a_.lit_call_.tree == a_.root_.tree) {
          Workload& w = a_.out_->workloads.back();
          if (w.spot.absent()) w.spot.literal = a_.R(a_.lit_call_);
        }
      }
      break;
    case ObjKind::kProcessor:
      EmitProcessor(o);
      break;
    case ObjKind::kTransformer:
      EmitTransformer(o);
      break;
    case ObjKind::kPredictor:
      EmitPredictor(static_cast<int>(i));
      break;
    case ObjKind::kRemote:
      EmitRemote(o);
      break;
    default:
      break;
  }
}

// Where the workloads helpers made go (docs/python.md "Helpers"): a workload
// that reads an argument its call passes is that call's, placed there, one per
// such call; the others are built the same way by every call and are reported
// once, at the helper's own line — unless the calls still made them differently
// (a global the helper reads changed between them), which places each at its call.
void SdkModel::PlaceHelperWorkloads() {
  std::vector<Workload>& ws = a_.out_->workloads;
  std::map<std::pair<uint32_t, int>, std::vector<const HelperMade*>> same_build;
  for (const HelperMade& h : helper_made_) {
    if (h.reads)
      PlaceAtCall(ws[h.index], h.via, h.helper);
    else
      same_build[{h.site, h.k}].push_back(&h);
  }
  for (const auto& [site, made] : same_build) {
    std::string first = Signature(ws[made.front()->index]);
    bool same =
        std::all_of(made.begin(), made.end(), [&](const HelperMade* h) { return Signature(ws[h->index]) == first; });
    for (size_t j = 0; j < made.size(); ++j) {
      if (!same) {
        PlaceAtCall(ws[made[j]->index], made[j]->via, made[j]->helper);
      } else if (j > 0) {
        // Each call still runs the job or deploys the endpoint: one workload
        // per call (the inventory counts them), reported at the helper's line
        // as the first, so the findings are one (linter/engine/group.h).
        ws[made[j]->index] = ws[made.front()->index];
      } else if (!made[j]->own_label.empty()) {
        ws[made[j]->index].name = made[j]->own_name;
        ws[made[j]->index].label = made[j]->own_label;
      } else if (made[j]->object >= 0) {
        // Reported once where the helper writes it: its literals are the ones a fix edits.
        const HelperMade& h = *made[j];
        Object& o = objects_[static_cast<size_t>(h.object)];
        const Object& settings = o.kind == ObjKind::kTuner && o.source >= 0 ? objects_[o.source] : o;
        std::string caller_var = o.var;
        if (o.helper_var) o.var = *o.helper_var;
        size_t end = ws.size();
        a_.lit_call_ = settings.call;
        EmitObject(static_cast<size_t>(h.object));
        a_.lit_call_ = {};
        o.var = caller_var;
        if (ws.size() > end + static_cast<size_t>(h.k)) ws[h.index] = std::move(ws[end + static_cast<size_t>(h.k)]);
        ws.resize(end);
      }
    }
  }
  helper_made_.clear();
}

// What a workload says, its positions and names aside: two calls of a helper
// made the same workload when their signatures are equal.
std::string SdkModel::Signature(const Workload& w) {
  std::string out = std::to_string(static_cast<int>(w.kind)) + (w.complete ? "c" : "i") + w.delete_statement;
  std::function<void(const Val&)> val = [&](const Val& v) {
    out += std::to_string(static_cast<int>(v.state)) + v.text + '\x1f' + v.origin + '\x1f' + v.condition + '{';
    for (const Val& a : v.alternatives) val(a);
    out += '}';
  };
  Workload copy = w;
  ForEachVal(copy, [&](Val& v) { val(v); });
  out += std::to_string(w.channels.size()) + "/" + std::to_string(w.instance_groups.size());
  for (const Channel& c : w.channels) out += c.name + (c.code ? "+" : "-") + (c.file_system ? "f" : "s");
  return out;
}

void SdkModel::Emit() {
  // The endpoint names deploys use: by text when known, by value identity when not.
  auto note_name = [&](const std::optional<Ev>& e) {
    if (!e) return;
    std::vector<VId> values = {e->v};
    if (a_.store_.Kind(e->v) == VK::kOneOf) {
      for (const Alt& alt : a_.V(e->v).alts) values.push_back(alt.value.v);
    }
    for (VId v : values) {
      if (a_.store_.Kind(v) == VK::kOpaque) endpoint_name_values_.insert(v);
      if (a_.store_.Kind(v) == VK::kStr) endpoint_names_.insert(a_.V(v).text);
    }
  };
  for (const Object& o : objects_) {
    if (o.kind == ObjKind::kPredictor && !o.attached) note_name(Arg(o.args, {"endpoint_name"}));
  }
  for (const ClientCall& c : client_calls_) {
    if (c.method == "create_endpoint" || c.method == "update_endpoint") note_name(Arg(c.args, {"EndpointName"}));
  }
  for (size_t i = 0; i < objects_.size(); ++i) {
    const Object& o = objects_[i];
    if (o.expected_to_fail) continue;
    size_t first = a_.out_->workloads.size();
    // Literal sites come from the call that configures the workload, unless a
    // helper made it (the helper's literal is shared by each of its calls).
    const Object& settings = o.kind == ObjKind::kTuner && o.source >= 0 ? objects_[o.source] : o;
    a_.lit_call_ = ts_node_is_null(o.via) && ts_node_is_null(settings.via) ? settings.call : TSNode{};
    if (ts_node_is_null(o.via)) {
      EmitObject(i);
      a_.lit_call_ = {};
      continue;
    }
    // Made by a helper run at a call: first with the helper's own names, reading
    // which of its values came from the call's arguments.
    std::string caller_var = o.var;
    if (o.helper_var) objects_[i].var = *o.helper_var;
    reading_ = o.run >= 0 ? &a_.run_args_[static_cast<size_t>(o.run)] : nullptr;
    read_arg_ = false;
    EmitObject(i);
    bool reads = read_arg_;
    // What it was made from, passed by the call (a model the helper deploys): read too.
    if (reading_ && o.source >= 0 && objects_[o.source].run != o.run && reading_->count(objects_[o.source].value)) {
      reads = true;
    }
    reading_ = nullptr;
    if (reads && o.helper_var) {  // placed at the call: named as the call names it
      a_.out_->workloads.resize(first);
      objects_[i].var = caller_var;
      EmitObject(i);
    }
    objects_[i].var = caller_var;
    a_.lit_call_ = {};
    for (size_t k = first; k < a_.out_->workloads.size(); ++k) {
      helper_made_.push_back({k,
                              o.via,
                              o.helper,
                              reads,
                              ts_node_start_byte(o.call),
                              static_cast<int>(k - first),
                              {},
                              {},
                              static_cast<int>(i)});
    }
  }
  EmitClientCalls();
  PlaceHelperWorkloads();
  if (a_.nb_) WorkflowDeletes();
  std::stable_sort(a_.out_->workloads.begin(), a_.out_->workloads.end(), [](const Workload& a, const Workload& b) {
    if (a.range.begin.line != b.range.begin.line) return a.range.begin.line < b.range.begin.line;
    return a.range.begin.column < b.range.begin.column;
  });
  if (a_.nb_) {
    for (Workload& w : a_.out_->workloads) FillCells(w);
    // One clean-up cell deletes every endpoint the notebook leaves running:
    // each of them names all the statements, so their fixes are one edit.
    auto open = [](const Workload& w) {
      // A statement through a name kept at its deploy only where that line is
      // inserted too: with the fix of the endpoint's own finding (rules/SM213.md).
      bool reported = !w.serverless.present() && w.deleted.known() && w.deleted.text == "false";
      return w.kind == WorkloadKind::kEndpointVariant && !w.delete_statement.empty() &&
             !(w.deleted.known() && w.deleted.text == "true") && (w.delete_capture.empty() || reported);
    };
    std::string all;
    for (const Workload& w : a_.out_->workloads) {
      if (open(w) && ("\n" + all + "\n").find("\n" + w.delete_statement + "\n") == std::string::npos) {
        all += (all.empty() ? "" : "\n") + w.delete_statement;
      }
    }
    for (Workload& w : a_.out_->workloads) {
      if (open(w)) w.delete_statement = all;
    }
  }
}

// boto3 request values carry file positions only: give them their cell.
void SdkModel::FillCells(Workload& w) const {
  auto fix_range = [&](SourceRange& r) {
    if (r.valid() && r.cell == 0) {
      SourceRange c = CellOf(*a_.nb_, r.begin.line);
      r.cell = c.cell;
      r.cell_line = c.cell_line;
    }
  };
  std::function<void(Val&)> fix = [&](Val& v) {
    fix_range(v.range);
    for (Val& a : v.alternatives) fix(a);
  };
  fix_range(w.range);
  ForEachVal(w, fix);
  for (InstanceGroup& g : w.instance_groups) fix_range(g.range);
  for (Channel& c : w.channels) fix_range(c.range);
}

}  // namespace sagelint::py
