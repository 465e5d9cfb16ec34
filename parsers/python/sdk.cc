// What the SageMaker Python SDK and boto3 do when called: which calls create
// estimators, models, processors, tuners, predictors and clients, what their
// methods record (fit, deploy, delete_endpoint, boto3 create_* requests), and
// the attributes that link them (predictor.endpoint_name, session.sagemaker_client).
#include <algorithm>
#include <cctype>
#include <climits>
#include <functional>
#include <set>

#include "linter/base/paths.h"
#include "linter/base/strings.h"
#include "parsers/aws/resources.h"
#include "parsers/common/base64.h"
#include "parsers/python/edit.h"
#include "parsers/python/sdk_model.h"

namespace sagelint::py {
namespace {

using Names = std::set<std::string, std::less<>>;

const Names& BuiltInAlgorithms() {
  static const Names k = {"KMeans",     "PCA",       "LinearLearner",   "FactorizationMachines",
                          "NTM",        "LDA",       "RandomCutForest", "KNN",
                          "IPInsights", "Object2Vec"};
  return k;
}
const Names& EstimatorClasses() {
  static const Names k = [] {
    Names n = {"Estimator",          "Framework",         "SKLearn", "XGBoost", "PyTorch",
               "TensorFlow",         "HuggingFace",       "MXNet",   "Chainer", "RLEstimator",
               "JumpStartEstimator", "AlgorithmEstimator"};
    n.insert(BuiltInAlgorithms().begin(), BuiltInAlgorithms().end());
    return n;
  }();
  return k;
}
const Names& ProcessorClasses() {
  static const Names k = {
      "Processor",        "ScriptProcessor",     "FrameworkProcessor",   "SKLearnProcessor",
      "PySparkProcessor", "SparkJarProcessor",   "HuggingFaceProcessor", "PyTorchProcessor",
      "XGBoostProcessor", "TensorFlowProcessor", "MXNetProcessor",       "SageMakerClarifyProcessor"};
  return k;
}
const Names& HelperClasses() {
  static const Names k = {
      "TrainingInput",        "FileSystemInput",    "ProcessingInput",   "Compute",
      "StoppingCondition",    "CheckpointConfig",   "InputData",         "ServerlessInferenceConfig",
      "AsyncInferenceConfig", "InstanceGroup",      "S3DataSource",      "BatchTransformInferenceConfig",
      "ResourceRequirements", "CheckpointLocation", "TrainingJobCompute"};
  return k;
}
bool IsModelClass(std::string_view cls) {
  static const Names k = {"Model", "FrameworkModel", "ModelPackage", "PipelineModel", "JumpStartModel"};
  if (k.count(cls)) return true;
  // SKLearnModel, PyTorchModel, KMeansModel, HuggingFaceModel, DJLModel, …
  return cls.size() > 5 && cls.ends_with("Model") && cls != "BaseModel";
}
bool IsPredictorClass(std::string_view cls) {
  return cls == "Predictor" || cls == "RealTimePredictor" || (cls.size() > 9 && cls.ends_with("Predictor"));
}

// Positional parameters of the SDK helper classes that accept them.
const std::vector<std::string_view>* HelperPositions(std::string_view cls) {
  static const std::vector<std::string_view> kTrainingInput = {"s3_data",         "distribution",    "compression",
                                                               "content_type",    "record_wrapping", "s3_data_type",
                                                               "instance_groups", "input_mode"};
  static const std::vector<std::string_view> kFileSystemInput = {"file_system_id", "file_system_type", "directory_path",
                                                                 "file_system_access_mode", "content_type"};
  static const std::vector<std::string_view> kProcessingInput = {
      "source", "destination", "input_name", "s3_data_type", "s3_input_mode", "s3_data_distribution_type"};
  static const std::vector<std::string_view> kInstanceGroup = {"instance_group_name", "instance_type",
                                                               "instance_count"};
  static const std::vector<std::string_view> kServerless = {"memory_size_in_mb", "max_concurrency",
                                                            "provisioned_concurrency"};
  static const std::vector<std::string_view> kInputData = {"channel_name", "data_source"};
  if (cls == "TrainingInput") return &kTrainingInput;
  if (cls == "FileSystemInput") return &kFileSystemInput;
  if (cls == "ProcessingInput") return &kProcessingInput;
  if (cls == "InstanceGroup") return &kInstanceGroup;
  if (cls == "ServerlessInferenceConfig") return &kServerless;
  if (cls == "InputData") return &kInputData;
  return nullptr;
}

std::string FrameworkOfClass(std::string_view cls) {
  static const std::pair<std::string_view, std::string_view> kPrefixes[] = {
      {"SKLearn", "sklearn"},         {"XGBoost", "xgboost"}, {"PyTorch", "pytorch"}, {"TensorFlow", "tensorflow"},
      {"HuggingFace", "huggingface"}, {"MXNet", "mxnet"},     {"Chainer", "chainer"}, {"RLEstimator", "rl"},
      {"PySpark", "spark"},           {"SparkJar", "spark"}};
  for (const auto& [prefix, fw] : kPrefixes) {
    if (cls.rfind(prefix, 0) == 0) return std::string(fw);
  }
  return {};
}

std::string Last(std::string_view q, int back = 0) {
  size_t end = q.size();
  for (int i = 0; i < back; ++i) {
    size_t dot = q.rfind('.', end - 1);
    if (dot == std::string_view::npos || dot == 0) return {};
    end = dot;
  }
  size_t dot = q.rfind('.', end - 1);
  size_t start = dot == std::string_view::npos ? 0 : dot + 1;
  return std::string(q.substr(start, end - start));
}

bool IsSageMaker(std::string_view q) { return q.rfind("sagemaker.", 0) == 0; }

// `dir` joined with a relative `rel`, `.` and `..` resolved lexically.
std::string JoinPath(const std::string& dir, std::string_view rel) {
  std::vector<std::string> parts;
  auto push = [&](std::string_view p) {
    size_t i = 0;
    while (i <= p.size()) {
      size_t e = p.find('/', i);
      if (e == std::string_view::npos) e = p.size();
      std::string_view part = p.substr(i, e - i);
      if (part == "..") {
        if (!parts.empty() && parts.back() != "..")
          parts.pop_back();
        else
          parts.emplace_back("..");
      } else if (!part.empty() && part != ".") {
        parts.emplace_back(part);
      }
      i = e + 1;
    }
  };
  if (rel.empty() || rel[0] != '/') push(dir);
  push(rel);
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

// A helper we cannot read whose name says it tears resources down
// (`delete_project_resources`, `cleanup()`, `delete_endpoints`): it may delete
// the notebook's endpoints.
bool LooksLikeCleanup(std::string_view name) {
  std::string n = AsciiLower(name);
  auto has = [&](std::string_view w) { return n.find(w) != std::string::npos; };
  bool removes = has("delete") || has("clean") || has("teardown") || has("tear_down") || has("destroy");
  return removes && (has("endpoint") || has("resource") || has("up") || has("all") || has("project") ||
                     has("everything") || n == "cleanup" || n == "clean");
}

bool PascalCase(std::string_view s) { return !s.empty() && s[0] >= 'A' && s[0] <= 'Z'; }

const Names& SageMakerCreateMethods() {
  static const Names k = {"create_training_job",      "create_hyper_parameter_tuning_job",
                          "create_processing_job",    "create_transform_job",
                          "create_notebook_instance", "create_notebook_instance_lifecycle_config",
                          "create_endpoint_config",   "create_endpoint"};
  return k;
}

// The sagemaker_core package (`sagemaker_core.resources`, `sagemaker_core.main.shapes`)
// became SDK v3's `sagemaker.core`: one library under two names.
std::string CoreModuleName(const std::string& q) {
  for (std::string_view old : {"sagemaker_core.main.", "sagemaker_core."}) {
    if (q.rfind(old, 0) == 0) return "sagemaker.core." + q.substr(old.size());
  }
  return q;
}

// The boto3 request a sagemaker.core resource's create() sends, by resource.
const char* CoreCreateMethod(std::string_view resource) {
  static const std::pair<std::string_view, const char*> k[] = {
      {"TrainingJob", "create_training_job"},
      {"HyperParameterTuningJob", "create_hyper_parameter_tuning_job"},
      {"ProcessingJob", "create_processing_job"},
      {"TransformJob", "create_transform_job"},
      {"NotebookInstance", "create_notebook_instance"},
      {"NotebookInstanceLifecycleConfig", "create_notebook_instance_lifecycle_config"},
      {"EndpointConfig", "create_endpoint_config"},
      {"Endpoint", "create_endpoint"},
      {"Model", "create_model"},
  };
  for (const auto& [name, method] : k) {
    if (name == resource) return method;
  }
  return nullptr;
}

// A sagemaker.core shape or create() keyword as the boto3 request spells it:
// `volume_size_in_gb` -> `VolumeSizeInGB`, `s3_uri` -> `S3Uri`, `max_payload_in_mb` -> `MaxPayloadInMB`.
std::string CorePascal(std::string_view snake) {
  std::string out;
  size_t start = 0;
  while (start <= snake.size()) {
    size_t end = snake.find('_', start);
    if (end == std::string_view::npos) end = snake.size();
    std::string_view word = snake.substr(start, end - start);
    if (word == "gb" || word == "mb") {
      for (char c : word) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(word[0])));
      out += word.substr(1);
    }
    start = end + 1;
  }
  return out;
}

}  // namespace

// Names without which a piece of code cannot create, use or delete a SageMaker
// workload: SDK classes and factories, the methods that launch or delete
// something, boto3 clients and their requests. A function body that mentions
// none of them is not run (analyser.h: Prescan).
bool IsRelevantName(std::string_view name) {
  static const Names kNames = [] {
    Names n = {"sagemaker",
               "boto3",
               "fit",
               "deploy",
               "train",
               "run",
               "tune",
               "transformer",
               "create_model",
               "compile_model",
               "build",
               "best_estimator",
               "attach",
               "from_recipe",
               "delete_endpoint",
               "delete",
               "delete_predictor",
               "client",
               "sagemaker_client",
               "boto_session",
               "register_scalable_target",
               "update_endpoint",
               "list_endpoints",
               "register",
               "optimize",
               "from_jumpstart_config",
               "from_recommendation_job",
               "RemoteExecutor",
               "Endpoint",
               "retrieve",
               "update",
               "setdefault",
               "ModelTrainer",
               "ModelBuilder",
               "HyperparameterTuner",
               "Transformer",
               "ParameterString",
               "ParameterInteger",
               "ParameterFloat",
               "ParameterBoolean"};
    n.insert(EstimatorClasses().begin(), EstimatorClasses().end());
    n.insert(ProcessorClasses().begin(), ProcessorClasses().end());
    n.insert(HelperClasses().begin(), HelperClasses().end());
    n.insert(SageMakerCreateMethods().begin(), SageMakerCreateMethods().end());
    return n;
  }();
  return kNames.count(name) > 0 || IsModelClass(name) || IsPredictorClass(name) || name.ends_with("Session");
}

bool IsEstimatorClassName(std::string_view cls) { return EstimatorClasses().count(cls) > 0; }

// `@remote` (sagemaker.remote_function) and the pipeline's `@step`
// (sagemaker.workflow.function_step, SDK v3 sagemaker.mlops.workflow.function_step):
// each runs the function as a training job configured at the decorator.
bool IsRemoteDecorator(std::string_view q) {
  return IsSageMaker(q) && ((q.ends_with(".remote") && q.find("remote_function") != std::string_view::npos) ||
                            (q.ends_with(".function_step.step")));
}

std::string SdkModel::MadeBy(TSNode call) const {
  if (a_.inlining_ == 0) return {};
  SourceRange at = a_.R(call);
  return "made by helper " + a_.inline_helper_ + "() " +
         (a_.nb_ ? "in cell " + std::to_string(at.cell) + " line " + std::to_string(at.cell_line)
                 : "at line " + std::to_string(at.begin.line));
}

std::string SdkModel::SharedName(VId v) const {
  const Value& x = a_.V(v);
  return x.kind == VK::kOpaque && x.aux.starts_with("name:") ? x.aux.substr(5) : std::string();
}

VId SdkModel::ObjectValue(int obj) {
  Object& o = objects_[obj];
  if (o.value != kUnknown) return o.value;
  VId id = a_.LibraryValue(this, Role::kObject, {}, obj);
  objects_[obj].value = id;
  return id;
}

int SdkModel::NewObject(Object o, TSNode call) {
  o.var = std::move(a_.pending_var_);
  if (o.var == "_") o.var.clear();  // `_ = …` names nothing
  a_.pending_var_.clear();
  o.call = call;
  o.order = a_.order_;
  o.expected_to_fail = a_.expect_failure_ > 0;
  if (a_.inlining_ > 0) {
    o.via = a_.inline_call_;
    o.helper = MadeBy(call);
    o.run = a_.run_;
  }
  if (!step_deps_.empty()) {
    std::set<int> deps;
    StepDeps(o.args, &deps);
    o.steps.assign(deps.begin(), deps.end());
  }
  int id = static_cast<int>(objects_.size());
  if (o.kind == ObjKind::kPredictor) {
    SourcePos p = a_.R(call).begin;
    o.key = aws::ResourceKey(a_.file_.path, (o.var.empty() ? std::string("deploy") : o.var) + "@" +
                                                std::to_string(p.line) + ":" + std::to_string(p.column));
  }
  objects_.push_back(std::move(o));
  return id;
}

bool SdkModel::IsLocalValue(VId v) const {
  const Value& x = a_.store_[v];
  if (IsObject(x)) return objects_[x.ref].kind == ObjKind::kSession && objects_[x.ref].local;
  if (x.kind == VK::kQual) {
    return x.text.ends_with("Mode.LOCAL_CONTAINER") || x.text.ends_with("Mode.IN_PROCESS");
  }
  if (x.kind == VK::kStr) return x.text == "LOCAL_CONTAINER" || x.text == "IN_PROCESS";
  return false;
}

VId SdkModel::Helper(const std::string& cls, Args& args) {
  Value h;
  h.kind = VK::kRecord;
  h.text = cls;
  h.complete = !args.unknown_spread;
  if (const auto* positions = HelperPositions(cls)) {
    for (size_t i = 0; i < args.positional.size() && i < positions->size(); ++i) {
      h.entries.push_back({std::string((*positions)[i]), args.positional[i]});
    }
  }
  for (const auto& kw : args.keywords) {
    const std::string& k = kw.first;
    h.entries.erase(std::remove_if(h.entries.begin(), h.entries.end(), [&](const Entry& x) { return x.key == k; }),
                    h.entries.end());
    h.entries.push_back({k, kw.second});
  }
  return a_.store_.New(std::move(h));
}

// The name a sagemaker.core resource is known by: `model_name=` of Model.create(),
// the first argument of TrainingJob.get().
static std::optional<Ev> CoreResourceName(const SdkModel& a, const Object& o) {
  std::string key = aws::SnakeCase(o.cls) + "_name";
  return a.Arg(o.args, {key}, 0);
}

VId SdkModel::CoreRequestValue(VId v, int depth) {
  const Value& x = a_.V(v);
  if (depth > 12) return kUnknown;
  switch (x.kind) {
    case VK::kLibrary: {
      if (!IsObject(x)) return v;
      // A resource passed where the request takes its name (`model_name=model`).
      const Object& o = objects_[x.ref];
      if (o.kind != ObjKind::kResource && !(o.kind == ObjKind::kPredictor && o.cls == "Endpoint")) return v;
      auto name = CoreResourceName(*this, o);
      return name ? name->v : kUnknown;
    }
    case VK::kRecord:
    case VK::kDict: {
      Value d;
      d.kind = VK::kDict;
      d.complete = x.complete;
      for (const Entry& e : x.entries) {
        // Hyperparameters and environment variables are the user's own keys.
        bool data = e.key == "hyper_parameters" || e.key == "environment" || e.key == "HyperParameters" ||
                    e.key == "Environment";
        std::string key = PascalCase(e.key) ? e.key : CorePascal(e.key);
        d.entries.push_back({key, {data ? e.value.v : CoreRequestValue(e.value.v, depth + 1), e.value.at}});
      }
      return a_.store_.New(std::move(d));
    }
    case VK::kList: {
      Value l;
      l.kind = VK::kList;
      l.complete = x.complete;
      for (const Ev& e : x.items) l.items.push_back({CoreRequestValue(e.v, depth + 1), e.at});
      return a_.store_.New(std::move(l));
    }
    case VK::kOneOf: {
      std::vector<Alt> alts;
      for (const Alt& alt : x.alts)
        alts.push_back({alt.cond, {CoreRequestValue(alt.value.v, depth + 1), alt.value.at}});
      return a_.store_.OneOf(std::move(alts));
    }
    default:
      return v;
  }
}

VId SdkModel::CoreResourceCall(const std::string& q, TSNode call, Args& args) {
  constexpr std::string_view kResources = "sagemaker.core.resources.";
  constexpr std::string_view kShapes = "sagemaker.core.shapes.";
  bool shapes = q.rfind(kShapes, 0) == 0;
  if (!shapes && q.rfind(kResources, 0) != 0) return kUnbound;
  std::string_view rest = std::string_view(q).substr(shapes ? kShapes.size() : kResources.size());
  size_t dot = rest.find('.');
  std::string cls(rest.substr(0, dot));
  if (!PascalCase(cls)) return kUnbound;
  // A shape (`ResourceConfig(instance_type=...)`, also imported from the resources
  // module): its fields, as the request will carry them.
  if (dot == std::string_view::npos) return Helper(cls, args);
  std::string_view method = rest.substr(dot + 1);
  const char* api = CoreCreateMethod(cls);
  if (shapes || !api) return kUnbound;
  Object o;
  o.cls = cls;
  o.args = args;
  o.kind = cls == "Endpoint" ? ObjKind::kPredictor : ObjKind::kResource;
  o.attached = true;  // an endpoint object names its endpoint; a deploy is the create_endpoint request
  if (method == "get" && cls != "Endpoint") return ObjectValue(NewObject(std::move(o), call));
  if (method != "create") return kUnbound;  // Endpoint.get / get_all: the SDK's own (below)
  if (a_.expect_failure_ == 0 && std::string_view(api) != "create_model") {
    Args request;
    request.call = args.call;
    request.unknown_spread = args.unknown_spread || !args.positional.empty();
    for (const auto& [key, ev] : args.keywords) {
      if (key == "session" || key == "region") continue;
      request.keywords.emplace_back(PascalCase(key) ? key : CorePascal(key), Ev{CoreRequestValue(ev.v, 0), ev.at});
    }
    client_calls_.push_back(
        {api, "sagemaker", std::move(request), a_.order_, a_.inline_call_, MadeBy(call), cls + ".create", a_.run_});
  }
  return ObjectValue(NewObject(std::move(o), call));
}

// A call of a name under `sagemaker.`: the SDK class it constructs (estimators,
// trainers, models, processors, tuners, sessions, …), a helper class whose
// arguments a request reads, a pipeline or one of its parts.
VId SdkModel::SdkClassCall(const std::string& q, TSNode call, Args& args) {
  std::string cls = Last(q);
  std::string owner = Last(q, 1);
  Object o;
  o.cls = cls;
  o.framework = FrameworkOfClass(cls);
  o.args = args;
  if (VId r = SdkFactoryCall(q, cls, owner, o, call, args); r != kUnbound) return r;
  if (IsPredictorClass(cls)) {
    o.kind = ObjKind::kPredictor;
    o.attached = true;
    return ObjectValue(NewObject(std::move(o), call));
  }
  o.jumpstart = cls.rfind("JumpStart", 0) == 0;
  if (EstimatorClasses().count(cls)) {
    o.kind = ObjKind::kEstimator;
  } else if (cls == "ModelTrainer") {
    o.kind = ObjKind::kModelTrainer;
  } else if (cls.ends_with("Trainer") && q.rfind("sagemaker.train.", 0) == 0) {
    o.kind = ObjKind::kModelTrainer;  // SFTTrainer, DPOTrainer, RLVRTrainer, CPTTrainer, …
    o.customization = true;
  } else if (cls == "ModelBuilder") {
    o.kind = ObjKind::kModelBuilder;
  } else if (ProcessorClasses().count(cls)) {
    o.kind = ObjKind::kProcessor;
    if (cls == "FrameworkProcessor") {
      auto est = Arg(args, {"estimator_cls"}, 0);
      if (est && a_.store_.Kind(est->v) == VK::kQual) o.framework = FrameworkOfClass(Last(a_.store_[est->v].text));
    }
  } else if (cls == "HyperparameterTuner") {
    o.kind = ObjKind::kTuner;
    auto src = Arg(args, {"estimator", "model_trainer"}, 0);
    int id = NewObject(std::move(o), call);
    if (src) {
      const Value& s = a_.V(src->v);
      int sid = IsObject(s) ? s.ref : -1;
      if (s.kind == VK::kOneOf) {
        for (const Alt& a : s.alts) {
          if (IsObject(a.value.v)) {
            sid = a_.store_[a.value.v].ref;
            break;
          }
        }
      }
      if (sid >= 0) {
        objects_[id].source = sid;
        objects_[sid].tuned = true;
      }
    }
    return ObjectValue(id);
  } else if (cls == "Transformer") {
    o.kind = ObjKind::kTransformer;
  } else if (IsModelClass(cls)) {
    o.kind = ObjKind::kModel;
  } else if (cls == "Session" || cls == "PipelineSession" || cls == "LocalSession" || cls == "LocalPipelineSession") {
    o.kind = ObjKind::kSession;
    o.local = cls.rfind("Local", 0) == 0;
  } else if (HelperClasses().count(cls)) {
    return Helper(cls, args);
  } else if (cls == "ParameterString" || cls == "ParameterInteger" || cls == "ParameterFloat" ||
             cls == "ParameterBoolean") {
    auto name = Arg(args, {"name"}, 0);
    auto def = Arg(args, {"default_value"}, 1);
    if (def && a_.V(def->v).scalar()) {
      std::string pname = name && a_.V(name->v).scalar() ? a_.V(name->v).text : std::string("?");
      const Value& d = a_.V(def->v);
      std::string text = d.text;
      return a_.store_.Scalar(d.kind, text, "pipeline parameter " + pname + " default");
    }
    return kUnknown;
  } else if (cls == "Pipeline" && q.find(".workflow.") != std::string::npos) {
    PipelineSteps(args);
    return kUnknown;
  } else if (q.find(".workflow.") != std::string::npos) {
    // A step, condition or function of a pipeline built from other steps' outputs includes them.
    std::set<int> deps;
    StepDeps(args, &deps);
    return deps.empty() ? kUnknown : StepValue(deps);
  } else if (q.ends_with("image_uris.retrieve")) {
    auto fw = Arg(args, {"framework"}, 0);
    Value v;
    v.kind = VK::kOpaque;
    if (fw && a_.V(fw->v).kind == VK::kStr) v.aux = a_.V(fw->v).text;
    return a_.store_.New(std::move(v));
  } else {
    return kUnknown;
  }
  return ObjectValue(NewObject(std::move(o), call));
}

// The SDK's class methods that make an object (`Estimator.attach`, `ModelTrainer.from_recipe`,
// `ModelBuilder.from_jumpstart_config`, `Endpoint.get`, …) and the remote-function decorators;
// kUnbound for any other name. `o` is the object as SdkClassCall starts it.
VId SdkModel::SdkFactoryCall(const std::string& q, const std::string& cls, const std::string& owner, Object& o,
                             TSNode call, Args& args) {
  if (cls == "attach" && (EstimatorClasses().count(owner) || owner == "HyperparameterTuner")) {
    o.kind = ObjKind::kModel;
    o.cls = owner;
    o.framework = FrameworkOfClass(owner);
    o.attached = true;
    return ObjectValue(NewObject(std::move(o), call));
  }
  if (cls == "from_recipe" && owner == "ModelTrainer") {
    o.kind = ObjKind::kModelTrainer;
    o.cls = "ModelTrainer";
    return ObjectValue(NewObject(std::move(o), call));
  }
  // SDK v3: a trainer or builder whose defaults come from a JumpStart model.
  if (cls == "from_jumpstart_config" && (owner == "ModelTrainer" || owner == "ModelBuilder")) {
    o.kind = owner == "ModelTrainer" ? ObjKind::kModelTrainer : ObjKind::kModelBuilder;
    o.cls = owner;
    o.jumpstart = true;
    return ObjectValue(NewObject(std::move(o), call));
  }
  // SDK v3: a builder whose deploy() creates the endpoint an inference recommendation job
  // recommends (instance type and count from the recommendation unless deploy() names them).
  if (cls == "from_recommendation_job" && owner == "ModelBuilder") {
    o.kind = ObjKind::kModelBuilder;
    o.cls = owner;
    o.recommended = true;
    o.args = Args{};
    if (auto session = Arg(args, {"sagemaker_session"})) o.args.keywords.emplace_back("sagemaker_session", *session);
    return ObjectValue(NewObject(std::move(o), call));
  }
  // SDK v3 `Endpoint.get_all()`: every endpoint of the account, as list_endpoints().
  if (cls == "get_all" && owner == "Endpoint") {
    Value v;
    v.kind = VK::kOpaque;
    v.aux = "endpoints:";
    return a_.store_.New(std::move(v));
  }
  // SDK v3 `Endpoint.get(endpoint_name=...)`: an existing endpoint, by name.
  if (cls == "get" && owner == "Endpoint") {
    o.kind = ObjKind::kPredictor;
    o.cls = "Endpoint";
    o.attached = true;
    return ObjectValue(NewObject(std::move(o), call));
  }
  if (cls == "RemoteExecutor" || ((cls == "remote" || cls == "step") && IsRemoteDecorator(q))) {
    o.kind = ObjKind::kRemote;
    o.cls = cls == "RemoteExecutor" ? cls : "@" + cls;
    // `step(fn, instance_type=...)` and `remote(fn, ...)`: the decorator applied to `fn` in a call;
    // the job is that function's.
    std::string function;
    if (cls != "RemoteExecutor") {
      if (auto fn = Arg(args, {"_func"}, 0); fn && a_.store_.Kind(fn->v) == VK::kFunction) {
        function = std::string(a_.functions_[a_.store_[fn->v].ref].name);
      } else if (fn && g_.Kind(fn->at) == N::kLambda) {
        function = "lambda";
      }
    }
    int id = NewObject(std::move(o), call);
    if (!function.empty()) objects_[id].var = std::move(function);
    return ObjectValue(id);
  }
  return kUnbound;
}

VId SdkModel::SdkCall(const std::string& written, TSNode call, Args& args) {
  const std::string q = CoreModuleName(written);
  if (VId r = CoreResourceCall(q, call, args); r != kUnbound) return r;
  if (IsSageMaker(q)) return SdkClassCall(q, call, args);
  if (q.rfind("boto3", 0) != 0 && q.rfind("builtins.", 0) != 0 && LooksLikeCleanup(Last(q))) {
    RecordDelete(kUnknown, call);
    return kUnknown;
  }
  // A file of the repository read by its literal path: its content is known
  // by that path, so two notebooks reading an endpoint name from it share it.
  if (q == "builtins.open" && !args.positional.empty() && a_.V(args.positional[0].v).kind == VK::kStr) {
    std::string mode = args.positional.size() > 1 && a_.V(args.positional[1].v).kind == VK::kStr
                           ? a_.V(args.positional[1].v).text
                           : std::string("r");
    if (mode.find_first_of("wax+") != std::string::npos) return kUnknown;
    return a_.SharedValue("file:" + JoinPath(DirOf(a_.file_.path), a_.V(args.positional[0].v).text));
  }
  if ((q == "json.load" || q == "json.loads" || q == "yaml.safe_load" || q == "yaml.load" || q == "yaml.full_load") &&
      !args.positional.empty() && SharedName(args.positional[0].v).starts_with("file:")) {
    return args.positional[0].v;
  }
  if (q == "boto3.client" || q == "boto3.session.client") {
    auto service = Arg(args, {"service_name"}, 0);
    if (service && a_.V(service->v).kind == VK::kStr) {
      const std::string& s = a_.V(service->v).text;
      if (s == "sagemaker" || s == "application-autoscaling") {
        Object o;
        o.kind = ObjKind::kClient;
        o.cls = "boto3 client";
        o.service = s;
        return ObjectValue(NewObject(std::move(o), call));
      }
    }
    return kUnknown;
  }
  if (q == "boto3.Session" || q == "boto3.session.Session") {
    Object o;
    o.kind = ObjKind::kBotoSession;
    o.cls = "boto3 session";
    return ObjectValue(NewObject(std::move(o), call));
  }
  return kUnknown;
}

// A method call on a receiver no model owns and the interpreter cannot resolve: the
// SDK values the interpreter holds as opaque (list_endpoints() results, names shared
// through files and %store), and a delete or a boto3 request on a client it cannot trace.
VId SdkModel::SdkUnresolvedMethod(VId recv, std::string_view method, TSNode call, Args& args) {
  const Value& r = a_.V(recv);
  if (r.kind == VK::kOpaque) {
    if (r.aux.starts_with("endpoints:")) {
      // list_endpoints()["Endpoints"] also as .get("Endpoints"); one of them by position.
      if (method == "get" && !args.positional.empty() && a_.store_.Kind(args.positional[0].v) == VK::kStr) return recv;
      // Each of Endpoint.get_all(), deleted.
      if (IsDeleteMethod(method)) RecordDelete(recv, call);
      return kUnknown;
    }
    std::string shared = SharedName(recv);
    if (shared.starts_with("file:")) {
      // Reading a shared file keeps it known by its path; `.get("key")` reads a key of it.
      if (method == "read" || method == "read_text" || method == "readline" || method == "strip" ||
          method == "rstrip" || method == "lstrip" || method == "decode") {
        return recv;
      }
      if (method == "get" && !args.positional.empty() && a_.store_.Kind(args.positional[0].v) == VK::kStr) {
        return a_.Subscript(recv, args.positional[0].v);
      }
      return kUnknown;
    }
    if (!shared.empty() && IsDeleteMethod(method)) {
      RecordDelete(recv, call);  // a predictor shared through %store, deleted
      return kUnknown;
    }
  }
  // A receiver we cannot resolve. Where the file made endpoints through
  // sagemaker.core, `x.delete()` (a loop over globals(), say) may delete one.
  if (method == "delete" && std::any_of(client_calls_.begin(), client_calls_.end(),
                                        [](const ClientCall& c) { return c.api == "Endpoint.create"; })) {
    RecordDelete(kUnknown, call);
    return kUnknown;
  }
  if (method != "delete_endpoint" && LooksLikeCleanup(method)) {
    RecordDelete(kUnknown, call);
    return kUnknown;
  }
  if (method == "delete_endpoint") {
    auto name = Arg(args, {"EndpointName", "endpoint_name"}, 0);
    RecordDelete(name ? name->v : kUnknown, call);
    return kUnknown;
  }
  if (a_.expect_failure_ == 0 && args.positional.empty() && !args.keywords.empty() &&
      std::all_of(args.keywords.begin(), args.keywords.end(), [](const auto& kv) { return PascalCase(kv.first); })) {
    // `sm_client.create_training_job(TrainingJobName=..., ...)` on a client we
    // cannot trace (a parameter, an attribute): the request itself says what it is.
    if (SageMakerCreateMethods().count(method) || method == "update_endpoint") {
      client_calls_.push_back(
          {std::string(method), "sagemaker", args, a_.order_, a_.inline_call_, MadeBy(call), {}, a_.run_});
    } else if (method == "register_scalable_target" && Arg(args, {"ServiceNamespace"})) {
      client_calls_.push_back({std::string(method),
                               "application-autoscaling",
                               args,
                               a_.order_,
                               a_.inline_call_,
                               MadeBy(call),
                               {},
                               a_.run_});
    }
  }
  return kUnknown;
}

// `object.name` read as a value, not called there.
bool SdkModel::SdkUncalled(VId obj, std::string_view attr, TSNode n, VId* result) {
  // `predictor.delete_endpoint` handed to something that calls it
  // (`_try("endpoint", endpoint.delete)`): a delete where it is handed over.
  const Value& o = a_.V(obj);
  if (IsObject(o) && objects_[o.ref].kind == ObjKind::kPredictor && IsDeleteMethod(attr)) {
    RecordDelete(obj, n);
  }
  // `client.delete_endpoint` handed on uncalled (a clean-up loop over `(fn, "EndpointName", name)`
  // tuples calling `fn(**{arg: name})`): the client's method, which deletes where it is called.
  if (IsObject(o) && attr == "delete_endpoint" &&
      (objects_[o.ref].kind == ObjKind::kClient || objects_[o.ref].kind == ObjKind::kSession)) {
    Value m;
    m.kind = VK::kOpaque;
    m.ref = o.ref;
    m.aux = "method:delete_endpoint";
    *result = a_.store_.New(std::move(m));
    return true;
  }
  return false;
}

// `@remote(...)`, `@step(...)`: the function is a job per call (its kRemote object).
int SdkModel::SdkDecorator(VId v, TSNode e) {
  const Value& x = a_.V(v);
  if (IsObject(x) && objects_[x.ref].kind == ObjKind::kRemote) return x.ref;
  if (x.kind == VK::kQual && IsRemoteDecorator(x.text)) {
    Object o;
    o.kind = ObjKind::kRemote;
    o.cls = x.text.ends_with(".step") ? "@step" : "@remote";
    return NewObject(std::move(o), e);
  }
  return -1;
}

// A call of a @remote function runs it as the training job its decorator
// configures; a CheckpointLocation argument is where it checkpoints.
VId SdkModel::SdkRemoteCall(int fn, TSNode call, Args& args) {
  int remote = a_.functions_[fn].remote;
  VId r = kUnknown;
  auto has_checkpoint = [&](const Ev& e) {
    return a_.store_.Kind(e.v) == VK::kRecord && a_.V(e.v).text == "CheckpointLocation";
  };
  for (const Ev& e : args.positional) {
    if (has_checkpoint(e)) objects_[remote].args.keywords.emplace_back("checkpoint_location", e);
  }
  for (const auto& [k, e] : args.keywords) {
    if (has_checkpoint(e)) objects_[remote].args.keywords.emplace_back("checkpoint_location", e);
  }
  a_.RecordFunctionCall(fn, args, call);
  // A @step function's call is a pipeline step (its output), which includes the
  // steps whose outputs it takes.
  if (objects_[remote].cls == "@step") {
    std::set<int> deps = {remote};
    StepDeps(args, &deps);
    r = StepValue(deps);
  }
  return r;
}

// A method of a value that is one of several (`x = a if c else b; x.deploy()`): each
// alternative's, the first standing for the call; a method that creates an object
// runs once, for the first object.
VId SdkModel::SdkAlternativesMethod(VId recv, std::string_view method, TSNode call, Args& args) {
  const Value& r = a_.V(recv);
  std::vector<Alt> alts = r.alts;
  bool creates = method == "deploy" || method == "transformer" || method == "create_model" ||
                 method == "compile_model" || method == "build" || method == "best_estimator";
  VId result = kUnknown;
  bool first = true;
  std::string var = a_.pending_var_;
  for (const Alt& a : alts) {
    const Value& x = a_.V(a.value.v);
    if (!IsObject(x) && x.kind != VK::kQual) continue;
    a_.pending_var_ = var;
    VId v = a_.CallMethod(a.value.v, method, call, args);
    if (first) result = v;
    first = false;
    if (creates) {
      // One deploy call makes one endpoint, whichever object deploys it.
      if (IsObject(v)) {
        for (const Alt& o : alts) {
          if (IsObject(o.value.v) && o.value.v != a.value.v) {
            objects_[a_.store_[v].ref].chosen_from.push_back(a_.store_[o.value.v].ref);
          }
        }
      }
      break;
    }
  }
  if (first && method == "delete_endpoint") RecordDelete(kUnknown, call);
  return result;
}

// A client's method taken as a value (`fn = client.delete_endpoint`), called.
bool SdkModel::SdkCallValue(VId callee, TSNode call, Args& args, VId* result) {
  const Value& c = a_.V(callee);
  if (!c.aux.starts_with("method:")) return false;
  int id = c.ref;
  std::string method = c.aux.substr(7);
  a_.pending_var_.clear();
  *result = a_.CallMethod(ObjectValue(id), method, call, args);
  return true;
}

VId SdkModel::ObjectMethod(int id, std::string_view method, TSNode call, Args& args) {
  ObjKind kind = objects_[id].kind;
  auto make = [&](ObjKind k, int source, const Args& a) {
    Object o;
    o.kind = k;
    o.cls = objects_[id].cls;
    o.framework = objects_[id].framework;
    o.source = source;
    o.args = a;
    o.local = objects_[id].local;
    return ObjectValue(NewObject(std::move(o), call));
  };
  // The object whose model a deploy / transformer / create_model uses.
  int model_source = kind == ObjKind::kTuner ? objects_[id].source : id;
  // A sagemaker.core resource's name (`endpoint_config.get_name()`).
  if (method == "get_name" &&
      (kind == ObjKind::kResource || (kind == ObjKind::kPredictor && objects_[id].cls == "Endpoint"))) {
    auto name = CoreResourceName(*this, objects_[id]);
    return name ? name->v : kUnknown;
  }
  switch (kind) {
    case ObjKind::kEstimator:
    case ObjKind::kTuner:
    case ObjKind::kModelTrainer:
    case ObjKind::kModel:
    case ObjKind::kModelBuilder: {
      // SDK v3's fluent configuration (`trainer.with_tensorboard_output_config(...)`) returns the object.
      if (method.starts_with("with_") && (kind == ObjKind::kModelTrainer || kind == ObjKind::kModelBuilder)) {
        return ObjectValue(id);
      }
      if (method == "fit" || method == "tune" || method == "train") {
        if (kind == ObjKind::kModel || kind == ObjKind::kModelBuilder || a_.expect_failure_ > 0)
          return a_.store_.None();
        objects_[id].fits.push_back(args);
        if (kind == ObjKind::kEstimator || kind == ObjKind::kTuner) objects_[id].fit_directly = true;
        if (!objects_[id].steps.empty()) {
          return StepValue({objects_[id].steps.begin(), objects_[id].steps.end()});  // a step's arguments
        }
        return a_.store_.None();
      }
      if (method == "deploy") {
        if (model_source < 0) model_source = id;
        return make(ObjKind::kPredictor, model_source, args);
      }
      if (method == "transformer") return make(ObjKind::kTransformer, model_source < 0 ? id : model_source, args);
      // ModelBuilder.optimize(): a model optimized for its instance type, deployed like build()'s.
      if (method == "create_model" || method == "compile_model" || method == "best_estimator" || method == "build" ||
          (method == "optimize" && kind == ObjKind::kModelBuilder)) {
        VId v = make(ObjKind::kModel, model_source < 0 ? id : model_source, args);
        if (method == "build" || method == "optimize") objects_[a_.store_[v].ref].builds.push_back(args);
        // optimize() also sets the builder's instance type for its own later deploy().
        if (method == "optimize") objects_[id].builds.push_back(args);
        return v;
      }
      // register(): a model package, which deploys like a model.
      if (method == "register" && kind != ObjKind::kTuner) {
        VId v = make(ObjKind::kModel, model_source < 0 ? id : model_source, args);
        objects_[a_.store_[v].ref].cls = "ModelPackage";
        return v;
      }
      if (method == "delete_endpoint") {
        // The SDK v1 estimator.delete_endpoint(): the endpoint its deploy made.
        Delete d = MakeDelete(kUnknown, call);
        d.unknown = false;
        d.order = a_.in_function_ ? Order{LONG_MAX, LONG_MAX} : a_.order_;
        d.dead = a_.dead_function_;
        for (size_t i = 0; i < objects_.size(); ++i) {
          if (objects_[i].kind == ObjKind::kPredictor && !objects_[i].attached &&
              (objects_[i].source == id || objects_[i].source == model_source)) {
            d.objects.push_back(static_cast<int>(i));
          }
        }
        d.unknown = d.objects.empty();
        if (a_.expect_failure_ == 0) deletes_.push_back(std::move(d));
      }
      return kUnknown;
    }
    case ObjKind::kProcessor:
      if (method == "run" && a_.expect_failure_ == 0) objects_[id].fits.push_back(args);
      if (method == "run" && !objects_[id].steps.empty()) {
        return StepValue({objects_[id].steps.begin(), objects_[id].steps.end()});  // a step's arguments
      }
      return kUnknown;
    case ObjKind::kPredictor:
      if (IsDeleteMethod(method)) {
        RecordDelete(ObjectValue(id), call);
      }
      return kUnknown;
    case ObjKind::kSession:
      if (method == "delete_endpoint") {
        auto name = Arg(args, {"endpoint_name"}, 0);
        RecordDelete(name ? name->v : kUnknown, call);
      }
      return kUnknown;
    case ObjKind::kBotoSession:
      if (method == "client") {
        auto service = Arg(args, {"service_name"}, 0);
        if (service && a_.V(service->v).kind == VK::kStr &&
            (a_.V(service->v).text == "sagemaker" || a_.V(service->v).text == "application-autoscaling")) {
          Object o;
          o.kind = ObjKind::kClient;
          o.cls = "boto3 client";
          o.service = a_.V(service->v).text;
          return ObjectValue(NewObject(std::move(o), call));
        }
      }
      return kUnknown;
    case ObjKind::kClient: {
      if (method == "delete_endpoint") {
        auto name = Arg(args, {"EndpointName"}, 0);
        RecordDelete(name ? name->v : kUnknown, call);
      }
      if (method == "list_endpoints") {
        // The endpoints it lists (those whose name contains NameContains).
        Value v;
        v.kind = VK::kOpaque;
        auto part = Arg(args, {"NameContains"});
        if (part && a_.store_.Kind(part->v) != VK::kStr) return kUnknown;
        v.aux = "endpoints:" + (part ? a_.V(part->v).text : std::string());
        return a_.store_.New(std::move(v));
      }
      if (a_.expect_failure_ == 0) {
        client_calls_.push_back(
            {std::string(method), objects_[id].service, args, a_.order_, a_.inline_call_, MadeBy(call), {}, a_.run_});
      }
      return kUnknown;
    }
    default:
      return kUnknown;
  }
}

// The SDK model's attributes: `predictor.endpoint_name`, `session.sagemaker_client`, ….
VId SdkModel::SdkAttribute(VId object, std::string_view name) {
  const Value& x = a_.V(object);
  {
    int id = x.ref;
    ObjKind kind = objects_[id].kind;
    if (kind == ObjKind::kPredictor && (name == "endpoint_name" || name == "endpoint")) {
      return a_.LibraryValue(this, Role::kToken, {}, id);
    }
    // `model.endpoint_name` after `model.deploy()`: the endpoint its latest deploy made.
    if (name == "endpoint_name" && (kind == ObjKind::kModel || kind == ObjKind::kEstimator ||
                                    kind == ObjKind::kModelBuilder || kind == ObjKind::kTuner)) {
      for (size_t i = objects_.size(); i-- > 0;) {
        const Object& p = objects_[i];
        if (p.kind != ObjKind::kPredictor || p.attached) continue;
        bool from = p.source == id ||
                    (p.source >= 0 && objects_[p.source].source == id && objects_[p.source].kind == ObjKind::kModel);
        if (!from) continue;
        return a_.LibraryValue(this, Role::kToken, {}, static_cast<int>(i));
      }
      return kUnknown;
    }
    if (kind == ObjKind::kResource && name == aws::SnakeCase(objects_[id].cls) + "_name") {
      auto n = CoreResourceName(*this, objects_[id]);
      return n ? n->v : kUnknown;
    }
    if (kind == ObjKind::kSession && (name == "sagemaker_client" || name == "boto_session")) {
      auto& cache = name == "sagemaker_client" ? session_clients_ : session_boto_;
      auto it = cache.find(id);
      if (it != cache.end()) return ObjectValue(it->second);
      Object o;
      o.kind = name == "sagemaker_client" ? ObjKind::kClient : ObjKind::kBotoSession;
      o.cls = name == "sagemaker_client" ? "boto3 client" : "boto3 session";
      o.service = "sagemaker";
      std::string saved = std::move(a_.pending_var_);
      a_.pending_var_.clear();
      int made = NewObject(std::move(o), objects_[id].call);
      a_.pending_var_ = std::move(saved);
      cache[id] = made;
      return ObjectValue(made);
    }
    return kUnknown;
  }
}

Delete SdkModel::MakeDelete(VId target, TSNode call) {
  Delete d;
  d.at = a_.R(call);
  std::function<void(VId, int)> visit = [&](VId v, int depth) {
    const Value& x = a_.V(v);
    if (depth > 4) {
      d.unknown = true;
      return;
    }
    switch (x.kind) {
      case VK::kLibrary:  // an object, or what stands for one (predictor.endpoint_name: that predictor's endpoint)
        if ((IsObject(x) || IsRef(x)) && objects_[x.ref].kind == ObjKind::kPredictor) {
          d.objects.push_back(x.ref);
          // Predictor(name).delete_endpoint(), Endpoint.get(name).delete(): the endpoint it names.
          if (objects_[x.ref].attached) {
            auto name = Arg(objects_[x.ref].args, {"endpoint_name", "endpoint"}, 0);
            if (name)
              visit(name->v, depth + 1);
            else
              d.unknown = true;
          } else if (auto name = Arg(objects_[x.ref].args, {"endpoint_name"})) {
            // A deploy to a name: the endpoint of that name goes too (another deploy or
            // create_endpoint may have made it). A run-time name matches by identity only.
            const Value& n = a_.V(name->v);
            if (n.kind == VK::kStr) {
              d.names.push_back(n.text);
            } else if (std::string shared = SharedName(name->v); !shared.empty()) {
              d.names.push_back(shared);
            } else if (n.kind == VK::kOpaque) {
              d.object_name_values.push_back(name->v);
            }
          }
        } else {
          d.unknown = true;
        }
        break;
      case VK::kStr:
        d.names.push_back(x.text);
        break;
      case VK::kOneOf:
        for (const Alt& a : x.alts) visit(a.value.v, depth + 1);
        break;
      case VK::kOpaque:
        if (std::string shared = SharedName(v); !shared.empty()) {
          d.names.push_back(shared);
        } else if (x.aux.starts_with("endpoints:")) {
          d.all = true;  // in a loop over list_endpoints(): every endpoint it lists
          d.contains = x.aux.substr(10);
        } else {
          d.name_values.push_back(v);  // a name known only at run time
        }
        break;
      default:
        d.unknown = true;
        break;
    }
  };
  visit(target, 0);
  return d;
}

void SdkModel::RecordDelete(VId target, TSNode call) {
  if (a_.expect_failure_ > 0) return;
  Delete d = MakeDelete(target, call);
  // A delete inside a function may run whenever the function is called: it
  // counts for every deploy (only module-level code has a known order).
  d.order = a_.in_function_ ? Order{LONG_MAX, LONG_MAX} : a_.order_;
  d.dead = a_.dead_function_;
  deletes_.push_back(std::move(d));
}

namespace {

// A name `from sagemaker.… import *` binds: the SDK's classes.
std::string SdkStarName(std::string_view m, std::string_view name) {
  if (!IsSageMaker(std::string(m) + ".")) return {};
  if (EstimatorClasses().count(name) || ProcessorClasses().count(name) || HelperClasses().count(name) ||
      IsModelClass(name) || IsPredictorClass(name) || name == "HyperparameterTuner" || name == "Transformer" ||
      name == "ModelTrainer" || name == "ModelBuilder" || name == "Session" || name == "LocalSession") {
    return std::string(m) + "." + std::string(name);
  }
  return {};
}

}  // namespace

// ---- the Library hooks -----------------------------------------------------------
// Every imported name is offered to the SDK model last (it answers unknown for
// names it does not know), and the objects it made (IsObject) are its own.

bool SdkModel::Call(Analyzer&, const std::string& q, TSNode call, Args& args, VId* result) {
  *result = SdkCall(q, call, args);
  return true;
}

bool SdkModel::Method(Analyzer&, VId receiver, std::string_view method, TSNode call, Args& args, VId* result) {
  if (!IsObject(receiver)) return false;
  *result = ObjectMethod(a_.store_[receiver].ref, method, call, args);
  return true;
}

bool SdkModel::Attribute(Analyzer&, VId object, std::string_view name, TSNode, VId* result) {
  if (a_.store_.Kind(object) == VK::kOpaque && a_.V(object).aux == "step:") {
    *result = object;  // `step.properties.…`: still the step
    return true;
  }
  if (!IsObject(object)) return false;
  *result = SdkAttribute(object, name);
  return true;
}

bool SdkModel::Uncalled(Analyzer&, VId object, std::string_view name, TSNode node, VId* result) {
  return SdkUncalled(object, name, node, result);
}

bool SdkModel::Decorator(Analyzer&, VId decorator, TSNode at, int* handle) {
  *handle = SdkDecorator(decorator, at);
  return *handle >= 0;
}

void SdkModel::Decorated(Analyzer&, int handle, int function) {
  objects_[handle].var = std::string(a_.functions_[function].name);
}

bool SdkModel::CallFunction(Analyzer&, int function, TSNode call, Args& args, VId* result) {
  *result = SdkRemoteCall(function, call, args);
  return true;
}

bool SdkModel::SetAttribute(Analyzer&, VId object, const std::string& name, Ev value) {
  if (!IsObject(object)) return false;
  // `estimator.use_spot_instances = True`: the setting the SDK sends.
  Args& args = objects_[a_.store_[object].ref].args;
  args.keywords.erase(
      std::remove_if(args.keywords.begin(), args.keywords.end(), [&](const auto& kv) { return kv.first == name; }),
      args.keywords.end());
  args.keywords.push_back({name, value});
  return true;
}

std::string SdkModel::StarName(std::string_view module, std::string_view name) { return SdkStarName(module, name); }

bool SdkModel::RelevantName(std::string_view name) { return IsRelevantName(name); }

bool SdkModel::Owns(std::string_view q) { return q.rfind("sagemaker", 0) == 0 || q.rfind("boto3", 0) == 0; }

bool SdkModel::CallValue(Analyzer&, VId callee, TSNode call, Args& args, VId* result) {
  return a_.store_.Kind(callee) == VK::kOpaque && SdkCallValue(callee, call, args, result);
}

// `client.delete_endpoint` taken as a value (SdkUncalled): opaque, tagged "method:<name>".
bool SdkModel::MethodValue(Analyzer&, VId v) {
  return a_.store_.Kind(v) == VK::kOpaque && a_.V(v).aux.starts_with("method:");
}

bool SdkModel::Alternatives(Analyzer&, VId receiver, std::string_view method, TSNode call, Args& args, VId* result) {
  *result = SdkAlternativesMethod(receiver, method, call, args);
  return true;
}

bool SdkModel::Unresolved(Analyzer&, VId receiver, std::string_view method, TSNode call, Args& args, VId* result) {
  *result = SdkUnresolvedMethod(receiver, method, call, args);
  return true;
}

// A name shared with other notebooks, used as an endpoint name, links like a
// literal name ("endpoint:<shared>/variant/…").
std::string SdkModel::SharedLink(std::string_view name) {
  return std::string(1, kLinkMark) + aws::EndpointKey(std::string(name)) + kLinkMark;
}

// `predictor.endpoint_name` in a string: the predictor's link key.
std::string SdkModel::Link(Analyzer&, VId v) {
  const Value& x = a_.V(v);
  if (!IsRef(x)) return {};
  return std::string(1, kLinkMark) + objects_[x.ref].key + kLinkMark;
}

// A loop over what list_endpoints() returned: each endpoint it lists.
bool SdkModel::Each(Analyzer&, VId iterable, VId* element) {
  if (!a_.V(iterable).aux.starts_with("endpoints:")) return false;
  *element = iterable;
  return true;
}

bool SdkModel::Item(Analyzer&, VId container, VId key, VId* result) {
  const Value& c = a_.V(container);
  if (c.aux == "step:") {  // a step output's item: still that step
    *result = container;
    return true;
  }
  // What list_endpoints() returned, by a key: still the listed endpoints;
  // by a position: one of them.
  if (c.aux.starts_with("endpoints:")) {
    *result = a_.store_.Kind(key) == VK::kStr ? container : kUnknown;
    return true;
  }
  return false;
}

// `m = build_model(...)`: an object the helper made and returns is named at the call.
void SdkModel::Returned(Analyzer&, VId result, int run, const std::string& target) {
  if (!IsObject(result)) return;
  Object& made = objects_[a_.V(result).ref];
  if (made.run != run) return;
  made.helper_var = made.var;
  made.var = target == "_" ? std::string() : target;
}

// A delete in a branch that cannot run: recorded with why, never counted.
void SdkModel::DeadCall(Analyzer&, TSNode n, const std::string& why) {
  TSNode fn = g_.Field(n, g_.f_function);
  if (g_.Kind(fn) != N::kAttribute) return;
  std::string_view method = a_.T(g_.Field(fn, g_.f_attribute));
  if (IsDeleteMethod(method)) {
    VId recv = a_.PureEval(g_.Field(fn, g_.f_object));
    const Value& r = a_.V(recv);
    VId target = kUnbound;
    if (IsObject(r) && objects_[r.ref].kind == ObjKind::kPredictor) {
      target = recv;
    } else if (method == "delete_endpoint") {
      target = kUnknown;
      for (TSNode a : a_.Kids(g_.Field(n, g_.f_arguments))) {
        if (g_.Kind(a) == N::kKeywordArgument) {
          std::string_view k = a_.T(g_.Field(a, g_.f_name));
          if (k == "EndpointName" || k == "endpoint_name") target = a_.PureEval(g_.Field(a, g_.f_value));
        } else if (g_.Kind(a) != N::kComment && target == kUnknown) {
          target = a_.PureEval(a);
        }
      }
    }
    if (target != kUnbound) {
      Delete d = MakeDelete(target, n);
      d.dead = why;
      d.order = a_.order_;
      deletes_.push_back(std::move(d));
    }
  }
}

// `lambda: Endpoint.get(name).delete()`, handed to a helper that calls it: the delete is read at once.
bool SdkModel::ReadNow(std::string_view method) { return IsDeleteMethod(method); }

// A pytest fixture that returns a session (`sagemaker.Session()`, `LocalSession`,
// `PipelineSession`, `LocalPipelineSession`, by any path of the package).
bool SdkModel::Makes(std::string_view qualified) {
  if (!qualified.starts_with("sagemaker.")) return false;
  std::string_view cls = qualified.substr(qualified.rfind('.') + 1);
  return cls == "Session" || cls == "LocalSession" || cls == "PipelineSession" || cls == "LocalPipelineSession";
}

bool SdkModel::Made(Analyzer&, const std::string& qualified, VId* result) {
  if (!Makes(qualified)) return false;
  std::string cls = qualified.substr(qualified.rfind('.') + 1);
  Object o;
  o.kind = ObjKind::kSession;
  o.cls = cls;
  o.local = cls.rfind("Local", 0) == 0;
  *result = ObjectValue(NewObject(std::move(o), TSNode{}));
  return true;
}

}  // namespace sagelint::py

namespace sagelint::py {

// ---- pipeline steps ---------------------------------------------------------------

void SdkModel::StepDeps(VId v, std::set<int>* out, int depth) const {
  if (depth > 8 || v < 0) return;
  if (auto it = step_deps_.find(v); it != step_deps_.end()) out->insert(it->second.begin(), it->second.end());
  const Value& x = a_.V(v);
  switch (x.kind) {
    case VK::kList:
      for (const Ev& e : x.items) StepDeps(e.v, out, depth + 1);
      break;
    case VK::kDict:
    case VK::kRecord:
      for (const Entry& e : x.entries) StepDeps(e.value.v, out, depth + 1);
      break;
    case VK::kOneOf:
      for (const Alt& a : x.alts) StepDeps(a.value.v, out, depth + 1);
      break;
    case VK::kLibrary:
      if (IsObject(x)) out->insert(objects_[x.ref].steps.begin(), objects_[x.ref].steps.end());
      break;
    default:
      break;
  }
}

void SdkModel::StepDeps(const Args& a, std::set<int>* out) const {
  if (step_deps_.empty()) return;
  for (const Ev& e : a.positional) StepDeps(e.v, out);
  for (const auto& [k, e] : a.keywords) StepDeps(e.v, out);
}

VId SdkModel::StepValue(const std::set<int>& deps) {
  Value v;
  v.kind = VK::kOpaque;
  v.aux = "step:";
  VId id = a_.store_.New(std::move(v));
  step_deps_[id].assign(deps.begin(), deps.end());
  return id;
}

// A pipeline runs its steps — those of `steps` and the steps their outputs
// come from — as its session runs them: a LocalPipelineSession (or
// LocalSession) runs them on this machine.
void SdkModel::PipelineSteps(const Args& args) {
  std::set<int> deps;
  StepDeps(args, &deps);
  auto session = Arg(args, {"sagemaker_session"});
  bool local = session && IsLocalValue(session->v);
  for (int id : deps) {
    if (objects_[id].kind != ObjKind::kRemote) continue;
    if (local)
      ++objects_[id].local_pipelines;
    else
      ++objects_[id].cloud_pipelines;
  }
}

}  // namespace sagelint::py
