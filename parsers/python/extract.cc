// SageMaker Python SDK / boto3 front end: Python files and notebooks ->
// workloads. Only calls that resolve, through the file's imports, to the
// `sagemaker` package (or to boto3 clients of SageMaker services) count.
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "linter/model/catalog.h"
#include "parsers/frontend.h"
#include "parsers/cloudformation/request.h"
#include "parsers/common/base64.h"
#include "parsers/common/escapes.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/python/notebook.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace sagelint {
namespace py {
namespace {

constexpr size_t kMaxBytes = 8u << 20;
constexpr int kDeadlineMs = 3000;
constexpr int kMaxEvalDepth = 48;
constexpr int kMaxWalkNodes = 2'000'000;
constexpr char kRefMark = '\x01';
using cfn::kUnknownMarker;

// A statically evaluated Python value.
struct PyVal {
  struct Entry;  // a key and its value (defined below: PyVal must be complete)
  enum class Kind { kUnknown, kStr, kNum, kBool, kNone, kDict, kList, kCall, kObject };
  Kind kind = Kind::kUnknown;
  std::string text;    // kStr / kNum / kBool ("true"/"false")
  std::string origin;  // "constant INSTANCE_TYPE", "pipeline parameter X default"
  SourceRange range;
  std::vector<Entry> dict;
  bool complete = true;  // kDict: no unknown spread or key
  std::vector<PyVal> list;
  std::string callee;  // kCall: the SDK helper class ("TrainingInput")
  TSNode node{};       // kCall: the call
  int object = -1;     // kObject
  std::string framework;  // image_uris.retrieve("sklearn", ...)
  std::string link;       // text with SDK object references as \x01var\x01 (endpoint names)
  std::string script;     // base64.b64encode(<script>.encode()): the script text

  bool known() const { return kind == Kind::kStr || kind == Kind::kNum || kind == Kind::kBool; }
  const PyVal* Get(std::string_view key) const;
};

struct PyVal::Entry {
  Entry(std::string k, PyVal v) : first(std::move(k)), second(std::move(v)) {}
  std::string first;
  PyVal second;
};

const PyVal* PyVal::Get(std::string_view key) const {
  for (const auto& [k, v] : dict) {
    if (k == key) return &v;
  }
  return nullptr;
}

enum class ObjKind { kEstimator, kModelTrainer, kModel, kProcessor, kTuner, kTransformer, kPredictor, kClient };

struct Object {
  ObjKind kind;
  std::string cls;      // "PyTorch", "boto3 client"
  std::string var;      // the variable it is bound to, if any
  TSNode call{};        // the constructor (or deploy / client) call
  std::string service;  // clients: "sagemaker", "application-autoscaling"
  std::string framework;
  int source = -1;       // tuner: its estimator; predictor / transformer: its model or estimator
  bool fit_directly = false;
  bool tuned = false;
  std::vector<TSNode> fits;  // fit / train / run calls
};

struct Args {
  std::vector<TSNode> positional;
  std::map<std::string, TSNode> keywords;
  std::map<std::string, PyVal> spread;  // from `**known_dict`
  bool unknown_spread = false;
};

const std::set<std::string, std::less<>>& EstimatorClasses() {
  static const std::set<std::string, std::less<>> k = {
      "Estimator",  "Framework", "SKLearn",     "XGBoost",   "PyTorch", "TensorFlow", "HuggingFace",
      "MXNet",      "Chainer",   "RLEstimator", "JumpStartEstimator", "AlgorithmEstimator"};
  return k;
}
const std::set<std::string, std::less<>>& ModelClasses() {
  static const std::set<std::string, std::less<>> k = {
      "Model",        "FrameworkModel", "SKLearnModel",     "PyTorchModel",   "XGBoostModel", "TensorFlowModel",
      "HuggingFaceModel", "MXNetModel", "ChainerModel",     "JumpStartModel", "ModelPackage"};
  return k;
}
const std::set<std::string, std::less<>>& ProcessorClasses() {
  static const std::set<std::string, std::less<>> k = {
      "Processor",        "ScriptProcessor",  "FrameworkProcessor", "SKLearnProcessor",    "PySparkProcessor",
      "SparkJarProcessor", "HuggingFaceProcessor", "PyTorchProcessor", "XGBoostProcessor", "TensorFlowProcessor",
      "MXNetProcessor"};
  return k;
}
const std::set<std::string, std::less<>>& HelperClasses() {
  static const std::set<std::string, std::less<>> k = {
      "TrainingInput", "FileSystemInput", "ProcessingInput", "Compute", "StoppingCondition",
      "CheckpointConfig", "InputData", "ServerlessInferenceConfig", "AsyncInferenceConfig",
      "InstanceGroup", "S3DataSource"};
  return k;
}

std::string FrameworkOfClass(std::string_view cls) {
  static const std::pair<std::string_view, std::string_view> kPrefixes[] = {
      {"SKLearn", "sklearn"},   {"XGBoost", "xgboost"}, {"PyTorch", "pytorch"},      {"TensorFlow", "tensorflow"},
      {"HuggingFace", "huggingface"}, {"MXNet", "mxnet"}, {"Chainer", "chainer"}, {"RLEstimator", "rl"},
      {"PySpark", "spark"},     {"SparkJar", "spark"}};
  for (const auto& [prefix, fw] : kPrefixes) {
    if (cls.rfind(prefix, 0) == 0) return std::string(fw);
  }
  return {};
}

std::string LastComponent(std::string_view q) {
  size_t dot = q.rfind('.');
  return std::string(dot == std::string_view::npos ? q : q.substr(dot + 1));
}


class Analyzer {
 public:
  Analyzer(const SourceFile& file, std::string_view src, const NotebookSource* nb, FileResult* out)
      : file_(file), src_(src), nb_(nb), out_(out) {}

  void Run(TSNode root) {
    Collect(root);
    for (TSNode call : calls_) Call(call);
    Emit();
  }

 private:
  // ---- positions -------------------------------------------------------
  SourceRange R(TSNode n) const {
    SourceRange r{ts::Start(n), ts::End(n)};
    return nb_ ? MapRange(*nb_, r) : r;
  }
  std::string_view T(TSNode n) const { return ts::Text(n, src_); }

  // ---- pass 1: imports, assignments, calls in document order ------------
  void Collect(TSNode root) {
    std::vector<TSNode> stack = {root};
    int visited = 0;
    while (!stack.empty() && ++visited < kMaxWalkNodes) {
      TSNode n = stack.back();
      stack.pop_back();
      std::string_view type = ts::Type(n);
      if (type == "import_statement" || type == "import_from_statement") {
        Import(n);
        continue;
      }
      if (type == "assignment") {
        TSNode left = ts::Field(n, "left");
        TSNode right = ts::Field(n, "right");
        if (!ts_node_is_null(left) && !ts_node_is_null(right) && ts::Type(left) == "identifier") {
          bindings_[std::string(T(left))].push_back(right);
        }
      }
      if (type == "call") calls_.push_back(n);
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = count; i > 0; --i) stack.push_back(ts_node_named_child(n, i - 1));
    }
    std::sort(calls_.begin(), calls_.end(),
              [](TSNode a, TSNode b) { return ts_node_start_byte(a) < ts_node_start_byte(b); });
  }

  void Import(TSNode n) {
    std::string module;
    uint32_t count = ts_node_named_child_count(n);
    bool from = ts::Type(n) == "import_from_statement";
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      const char* field = ts_node_field_name_for_named_child(n, i);
      if (from && field && std::string_view(field) == "module_name") {
        module = std::string(T(c));
        continue;
      }
      std::string name, alias;
      if (ts::Type(c) == "aliased_import") {
        name = std::string(T(ts::Field(c, "name")));
        alias = std::string(T(ts::Field(c, "alias")));
      } else if (ts::Type(c) == "dotted_name") {
        name = std::string(T(c));
      } else {
        continue;
      }
      if (from) {
        imports_[alias.empty() ? name : alias] = module + "." + name;
      } else if (!alias.empty()) {
        imports_[alias] = name;
      } else {
        // `import sagemaker.sklearn` binds `sagemaker`.
        std::string top = name.substr(0, name.find('.'));
        imports_[top] = top;
      }
    }
  }

  // The dotted name a callee stands for through the imports ("" if not a name).
  std::string Qualified(TSNode n, int depth = 0) const {
    if (depth > 16 || ts_node_is_null(n)) return {};
    std::string_view type = ts::Type(n);
    if (type == "identifier") {
      std::string id(T(n));
      auto it = imports_.find(id);
      return it != imports_.end() ? it->second : "local:" + id;
    }
    if (type == "attribute") {
      std::string base = Qualified(ts::Field(n, "object"), depth + 1);
      if (base.empty()) return {};
      return base + "." + std::string(T(ts::Field(n, "attribute")));
    }
    return {};
  }

  static bool IsSageMaker(std::string_view q) { return q.rfind("sagemaker.", 0) == 0; }

  Args ArgsOf(TSNode call, int depth) {
    Args a;
    TSNode list = ts::Field(call, "arguments");
    if (ts_node_is_null(list)) return a;
    uint32_t count = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(list, i);
      std::string_view type = ts::Type(c);
      if (type == "keyword_argument") {
        a.keywords[std::string(T(ts::Field(c, "name")))] = ts::Field(c, "value");
      } else if (type == "dictionary_splat") {
        PyVal d = Eval(ts_node_named_child(c, 0), depth + 1);
        if (d.kind == PyVal::Kind::kDict && d.complete) {
          for (auto& [k, v] : d.dict) a.spread[k] = v;
        } else {
          a.unknown_spread = true;
        }
      } else if (type == "list_splat") {
        a.unknown_spread = true;
      } else if (type != "comment") {
        a.positional.push_back(c);
      }
    }
    return a;
  }

  // An argument by keyword (any of `names`) or position; kind kNone-less unknown when absent.
  std::optional<PyVal> Arg(const Args& a, std::initializer_list<std::string_view> names, int position = -1,
                           int depth = 0) {
    for (std::string_view name : names) {
      auto it = a.keywords.find(std::string(name));
      if (it != a.keywords.end()) return Eval(it->second, depth + 1);
      auto sp = a.spread.find(std::string(name));
      if (sp != a.spread.end()) return sp->second;
    }
    if (position >= 0 && position < static_cast<int>(a.positional.size())) {
      return Eval(a.positional[position], depth + 1);
    }
    return std::nullopt;
  }

  // ---- evaluation -------------------------------------------------------
  PyVal Unknown(TSNode n) const {
    PyVal v;
    v.range = R(n);
    return v;
  }

  PyVal Eval(TSNode n, int depth = 0) {
    if (ts_node_is_null(n)) return PyVal{};
    if (depth > kMaxEvalDepth) return Unknown(n);
    std::string_view type = ts::Type(n);
    PyVal v;
    v.range = R(n);
    if (type == "string") return String(n, depth);
    if (type == "concatenated_string") {
      v.kind = PyVal::Kind::kStr;
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i) {
        PyVal part = String(ts_node_named_child(n, i), depth);
        if (part.kind != PyVal::Kind::kStr) return Unknown(n);
        v.text += part.text;
      }
      return v;
    }
    if (type == "integer" || type == "float") {
      v.kind = PyVal::Kind::kNum;
      for (char c : T(n)) {
        if (c != '_') v.text += c;
      }
      return v;
    }
    if (type == "true" || type == "false") {
      v.kind = PyVal::Kind::kBool;
      v.text = type == "true" ? "true" : "false";
      return v;
    }
    if (type == "none") {
      v.kind = PyVal::Kind::kNone;
      return v;
    }
    if (type == "parenthesized_expression") return Eval(ts_node_named_child(n, 0), depth + 1);
    if (type == "identifier") return Name(n, depth);
    if (type == "attribute") {
      // `predictor.endpoint_name`: unknown, but it names that SDK object's endpoint.
      TSNode obj = ts::Field(n, "object");
      if (ts::Type(obj) == "identifier" && T(ts::Field(n, "attribute")) == "endpoint_name") {
        int o = ObjectOfVar(std::string(T(obj)), ts_node_start_byte(n));
        if (o >= 0) v.link = std::string(1, kRefMark) + std::string(T(obj)) + kRefMark;
      }
      return v;
    }
    if (type == "dictionary") {
      v.kind = PyVal::Kind::kDict;
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode c = ts_node_named_child(n, i);
        if (ts::Type(c) == "pair") {
          PyVal key = Eval(ts::Field(c, "key"), depth + 1);
          if (key.kind != PyVal::Kind::kStr) {
            v.complete = false;
            continue;
          }
          v.dict.emplace_back(key.text, Eval(ts::Field(c, "value"), depth + 1));
        } else if (ts::Type(c) == "dictionary_splat") {
          PyVal d = Eval(ts_node_named_child(c, 0), depth + 1);
          if (d.kind == PyVal::Kind::kDict) {
            for (auto& kv : d.dict) v.dict.push_back(kv);
            v.complete = v.complete && d.complete;
          } else {
            v.complete = false;
          }
        }
      }
      return v;
    }
    if (type == "list" || type == "tuple") {
      v.kind = PyVal::Kind::kList;
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i) v.list.push_back(Eval(ts_node_named_child(n, i), depth + 1));
      return v;
    }
    if (type == "binary_operator") {
      PyVal a = Eval(ts::Field(n, "left"), depth + 1);
      PyVal b = Eval(ts::Field(n, "right"), depth + 1);
      if (a.kind == PyVal::Kind::kStr && b.kind == PyVal::Kind::kStr && T(ts::Field(n, "operator")) == "+") {
        v.kind = PyVal::Kind::kStr;
        v.text = a.text + b.text;
      }
      return v;
    }
    if (type == "call") return CallValue(n, depth);
    return v;
  }

  PyVal String(TSNode n, int depth) {
    PyVal v;
    v.range = R(n);
    if (ts::Type(n) != "string") return v;
    bool raw = false;
    std::string text, link;
    bool known = true, linked = false;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      std::string_view type = ts::Type(c);
      if (type == "string_start") {
        std::string_view prefix = T(c);
        raw = prefix.find_first_of("rR") != std::string_view::npos;
        if (prefix.find_first_of("bB") != std::string_view::npos) return v;
      } else if (type == "string_content") {
        std::string piece = raw ? std::string(T(c)) : DecodeEscapes(T(c));
        text += piece;
        link += piece;
      } else if (type == "interpolation") {
        PyVal part = Eval(ts::Field(c, "expression"), depth + 1);
        if (part.known()) {
          text += part.text;
          link += part.text;
        } else if (!part.link.empty()) {
          known = false;
          linked = true;
          link += part.link;
        } else {
          known = false;
          link += std::string(kUnknownMarker);
        }
      }
    }
    if (known) {
      v.kind = PyVal::Kind::kStr;
      v.text = text;
    } else if (linked) {
      v.link = link;
    }
    return v;
  }

  // A name bound once (or always to the same value) in the file or notebook.
  PyVal Name(TSNode n, int depth) {
    std::string name(T(n));
    PyVal v;
    v.range = R(n);
    int o = ObjectOfVar(name, ts_node_start_byte(n));
    if (o >= 0) {
      v.kind = PyVal::Kind::kObject;
      v.object = o;
      return v;
    }
    auto it = bindings_.find(name);
    if (it == bindings_.end() || evaluating_.count(name)) return v;
    evaluating_.insert(name);
    std::optional<PyVal> result;
    bool same = true;
    for (TSNode rhs : it->second) {
      PyVal r = Eval(rhs, depth + 1);
      if (!result) {
        result = r;
      } else if (!(r.known() && result->known() && r.text == result->text)) {
        same = false;
      }
    }
    evaluating_.erase(name);
    if (!result || !same) return v;
    PyVal out = *result;
    out.range = v.range;
    if (out.known() && out.origin.empty()) out.origin = "constant " + name;
    return out;
  }

  PyVal CallValue(TSNode n, int depth) {
    PyVal v;
    v.range = R(n);
    auto obj = call_object_.find(ts_node_start_byte(n));
    if (obj != call_object_.end()) {
      v.kind = PyVal::Kind::kObject;
      v.object = obj->second;
      return v;
    }
    TSNode fn = ts::Field(n, "function");
    std::string q = Qualified(fn);
    std::string cls = LastComponent(q);
    Args args = ArgsOf(n, depth);
    if (IsSageMaker(q) && (cls == "ParameterString" || cls == "ParameterInteger" || cls == "ParameterFloat" ||
                           cls == "ParameterBoolean")) {
      auto name = Arg(args, {"name"}, 0, depth);
      auto def = Arg(args, {"default_value"}, 1, depth);
      if (def && def->known()) {
        PyVal out = *def;
        out.range = v.range;
        out.origin = "pipeline parameter " + (name && name->known() ? name->text : std::string("?")) + " default";
        return out;
      }
      return v;
    }
    if (IsSageMaker(q) && q.ends_with("image_uris.retrieve")) {
      auto fw = Arg(args, {"framework"}, 0, depth);
      if (fw && fw->known()) v.framework = fw->text;
      return v;
    }
    if (IsSageMaker(q) && HelperClasses().count(cls)) {
      v.kind = PyVal::Kind::kCall;
      v.callee = cls;
      v.node = n;
      return v;
    }
    if (q == "local:dict" || q == "dict") {
      v.kind = PyVal::Kind::kDict;
      v.complete = !args.unknown_spread && args.positional.empty();
      for (const auto& [k, node] : args.keywords) v.dict.emplace_back(k, Eval(node, depth + 1));
      for (const auto& [k, val] : args.spread) v.dict.emplace_back(k, val);
      return v;
    }
    // base64.b64encode(script.encode()).decode(): the script survives for idle-stop checks.
    if (ts::Type(fn) == "attribute") {
      std::string_view method = T(ts::Field(fn, "attribute"));
      TSNode target = ts::Field(fn, "object");
      if (method == "decode" || method == "encode") {
        PyVal inner = Eval(target, depth + 1);
        if (method == "encode" && inner.kind == PyVal::Kind::kStr) {
          inner.range = v.range;
          return inner;
        }
        if (method == "decode" && !inner.script.empty()) return inner;
      }
      if (method == "b64encode" && !args.positional.empty()) {
        PyVal s = Eval(args.positional[0], depth + 1);
        if (s.kind == PyVal::Kind::kStr) {
          v.script = s.text.empty() ? " " : s.text;
          v.kind = PyVal::Kind::kStr;
          v.text = Base64Encode(s.text);
        }
        return v;
      }
    }
    return v;
  }

  // ---- objects -----------------------------------------------------------
  int ObjectOfVar(const std::string& var, uint32_t before) const {
    auto it = var_objects_.find(var);
    if (it == var_objects_.end()) return -1;
    int found = -1;
    for (const auto& [at, o] : it->second) {
      if (at < before) found = o;
    }
    return found;
  }

  // The SDK object a method is called on: a variable or a constructor call.
  int Receiver(TSNode object) {
    if (ts::Type(object) == "identifier") return ObjectOfVar(std::string(T(object)), ts_node_start_byte(object));
    if (ts::Type(object) == "call") {
      auto it = call_object_.find(ts_node_start_byte(object));
      return it == call_object_.end() ? -1 : it->second;
    }
    return -1;
  }

  // Binds a new object to the variable its creating call is assigned to.
  int NewObject(Object o, TSNode call) {
    TSNode parent = ts_node_parent(call);
    if (!ts_node_is_null(parent) && ts::Type(parent) == "assignment") {
      TSNode left = ts::Field(parent, "left");
      TSNode right = ts::Field(parent, "right");
      if (ts::Type(left) == "identifier" && ts_node_eq(right, call)) o.var = std::string(T(left));
    }
    o.call = call;
    int id = static_cast<int>(objects_.size());
    objects_.push_back(std::move(o));
    call_object_[ts_node_start_byte(call)] = id;
    if (!objects_[id].var.empty()) var_objects_[objects_[id].var].push_back({ts_node_start_byte(call), id});
    return id;
  }

  void Call(TSNode call) {
    TSNode fn = ts::Field(call, "function");
    std::string q = Qualified(fn);
    std::string cls = LastComponent(q);
    if (IsSageMaker(q)) {
      Object o;
      o.cls = cls;
      o.framework = FrameworkOfClass(cls);
      if (EstimatorClasses().count(cls)) o.kind = ObjKind::kEstimator;
      else if (cls == "ModelTrainer") o.kind = ObjKind::kModelTrainer;
      else if (ModelClasses().count(cls)) o.kind = ObjKind::kModel;
      else if (ProcessorClasses().count(cls)) o.kind = ObjKind::kProcessor;
      else if (cls == "HyperparameterTuner") o.kind = ObjKind::kTuner;
      else if (cls == "Transformer") o.kind = ObjKind::kTransformer;
      else return;
      if (o.kind == ObjKind::kProcessor && cls == "FrameworkProcessor") {
        Args a = ArgsOf(call, 0);
        auto it = a.keywords.find("estimator_cls");
        TSNode est = it != a.keywords.end() ? it->second : (a.positional.empty() ? TSNode{} : a.positional[0]);
        if (!ts_node_is_null(est)) o.framework = FrameworkOfClass(LastComponent(Qualified(est)));
      }
      int id = NewObject(std::move(o), call);
      if (objects_[id].kind == ObjKind::kTuner) {
        Args a = ArgsOf(call, 0);
        auto est = Arg(a, {"estimator"}, 0);
        if (est && est->kind == PyVal::Kind::kObject) {
          objects_[id].source = est->object;
          objects_[est->object].tuned = true;
        }
      }
      return;
    }
    if (ts::Type(fn) != "attribute") return;
    std::string method(T(ts::Field(fn, "attribute")));
    if (method == "client") {
      Args a = ArgsOf(call, 0);
      auto service = Arg(a, {"service_name"}, 0);
      if (service && service->known() &&
          (service->text == "sagemaker" || service->text == "application-autoscaling")) {
        Object o;
        o.kind = ObjKind::kClient;
        o.cls = "boto3 client";
        o.service = service->text;
        NewObject(std::move(o), call);
      }
      return;
    }
    int r = Receiver(ts::Field(fn, "object"));
    if (r < 0) return;
    Object& obj = objects_[r];
    if (method == "fit" && (obj.kind == ObjKind::kEstimator || obj.kind == ObjKind::kTuner)) {
      obj.fit_directly = true;
      obj.fits.push_back(call);
    } else if ((method == "train" && obj.kind == ObjKind::kModelTrainer) ||
               (method == "run" && obj.kind == ObjKind::kProcessor)) {
      obj.fits.push_back(call);
    } else if (method == "deploy" && (obj.kind == ObjKind::kEstimator || obj.kind == ObjKind::kModel ||
                                      obj.kind == ObjKind::kModelTrainer || obj.kind == ObjKind::kTuner)) {
      Object p;
      p.kind = ObjKind::kPredictor;
      p.cls = obj.cls;
      p.framework = obj.framework;
      p.source = obj.kind == ObjKind::kTuner ? obj.source : r;
      NewObject(std::move(p), call);
    } else if (method == "transformer" && (obj.kind == ObjKind::kEstimator || obj.kind == ObjKind::kModel)) {
      Object t;
      t.kind = ObjKind::kTransformer;
      t.cls = obj.cls;
      t.framework = obj.framework;
      t.source = r;
      NewObject(std::move(t), call);
    } else if (obj.kind == ObjKind::kClient) {
      client_calls_.push_back({method, call, obj.service});
    }
  }

  // ---- values into the model ---------------------------------------------
  static Val ToVal(const std::optional<PyVal>& v) {
    if (!v) return Val::Absent();
    if (v->kind == PyVal::Kind::kNone) return Val::Absent(v->range);
    if (v->known()) return Val::Known(v->text, v->range, v->origin);
    return Val::Unknown(v->range);
  }

  Workload Base(WorkloadKind kind, TSNode call, const std::string& what, const std::string& name) {
    Workload w;
    w.kind = kind;
    w.format = nb_ ? Format::kNotebook : Format::kPython;
    w.path = file_.path;
    w.scope = file_.path;
    w.name = name;
    w.label = what + " '" + name + "'";
    w.range = R(call);
    return w;
  }

  static bool LocalMode(const Val& type) { return type.known() && IsLocalMode(type.text); }

  void AddChannel(Workload& w, const std::string& name, const PyVal& v) {
    Channel c;
    c.name = name;
    c.range = v.range;
    if (v.kind == PyVal::Kind::kStr) {
      c.s3_uri = ToVal(v);
    } else if (v.kind == PyVal::Kind::kCall && (v.callee == "TrainingInput" || v.callee == "FileSystemInput")) {
      Args a = ArgsOf(v.node, 0);
      if (v.callee == "FileSystemInput") {
        c.file_system = true;
      } else {
        c.s3_uri = ToVal(Arg(a, {"s3_data"}, 0));
        c.distribution = ToVal(Arg(a, {"distribution"}, 1));
        c.input_mode = ToVal(Arg(a, {"input_mode"}));
      }
    } else if (v.kind == PyVal::Kind::kCall && v.callee == "InputData") {
      Args a = ArgsOf(v.node, 0);
      auto n = Arg(a, {"channel_name"}, 0);
      if (n && n->known()) c.name = n->text;
      auto src = Arg(a, {"data_source"}, 1);
      if (src && src->kind == PyVal::Kind::kStr) c.s3_uri = ToVal(src);
      if (src && src->kind == PyVal::Kind::kCall && src->callee == "FileSystemInput") c.file_system = true;
    } else {
      c.s3_uri = ToVal(v);
    }
    w.channels.push_back(std::move(c));
  }

  void ChannelsFromInputs(Workload& w, const std::optional<PyVal>& inputs) {
    if (!inputs || inputs->kind == PyVal::Kind::kNone) return;
    if (inputs->kind == PyVal::Kind::kDict) {
      for (const auto& [name, v] : inputs->dict) AddChannel(w, name, v);
    } else if (inputs->kind == PyVal::Kind::kList) {
      for (const PyVal& v : inputs->list) AddChannel(w, "?", v);
    } else {
      AddChannel(w, "training", *inputs);
    }
  }

  // Estimator settings (v2 and v1 keyword names).
  void EstimatorSettings(const Object& o, Workload& w) {
    Args a = ArgsOf(o.call, 0);
    w.complete = !a.unknown_spread;
    w.instance_type = ToVal(Arg(a, {"instance_type", "train_instance_type"}));
    w.instance_count = ToVal(Arg(a, {"instance_count", "train_instance_count"}));
    if (auto groups = Arg(a, {"instance_groups"}); groups && groups->kind == PyVal::Kind::kList &&
                                                    !groups->list.empty() &&
                                                    groups->list[0].kind == PyVal::Kind::kCall) {
      Args g = ArgsOf(groups->list[0].node, 0);
      w.instance_type = ToVal(Arg(g, {"instance_type"}, 1));
      w.instance_count = ToVal(Arg(g, {"instance_count"}, 2));
    }
    w.volume_gb = ToVal(Arg(a, {"volume_size", "train_volume_size"}));
    w.max_run_seconds = ToVal(Arg(a, {"max_run", "train_max_run"}));
    w.max_wait_seconds = ToVal(Arg(a, {"max_wait", "train_max_wait"}));
    w.spot = ToVal(Arg(a, {"use_spot_instances", "train_use_spot_instances"}));
    w.checkpoint = ToVal(Arg(a, {"checkpoint_s3_uri"}));
    w.keep_alive_seconds = ToVal(Arg(a, {"keep_alive_period_in_seconds"}));
    w.input_mode = ToVal(Arg(a, {"input_mode"}));
    auto image = Arg(a, {"image_uri", "image_name"});
    w.image = ToVal(image);
    w.framework = o.framework.empty() ? Val::Absent() : Val::Known(o.framework, w.range, "class " + o.cls);
    if (image && !image->framework.empty() && o.framework.empty()) {
      w.framework = Val::Known(image->framework, image->range, "image_uris.retrieve");
    }
  }

  void ModelTrainerSettings(const Object& o, Workload& w) {
    Args a = ArgsOf(o.call, 0);
    w.complete = !a.unknown_spread;
    auto compute = Arg(a, {"compute"});
    if (compute && compute->kind == PyVal::Kind::kCall) {
      Args c = ArgsOf(compute->node, 0);
      w.complete = w.complete && !c.unknown_spread;
      w.instance_type = ToVal(Arg(c, {"instance_type"}));
      w.instance_count = ToVal(Arg(c, {"instance_count"}));
      w.volume_gb = ToVal(Arg(c, {"volume_size_in_gb"}));
      w.keep_alive_seconds = ToVal(Arg(c, {"keep_alive_period_in_seconds"}));
      w.spot = ToVal(Arg(c, {"enable_managed_spot_training"}));
    } else if (!compute) {
      w.instance_type = Val::Known("ml.m5.xlarge", w.range, "ModelTrainer default");
      w.instance_count = Val::Known("1", w.range, "ModelTrainer default");
    } else {
      w.instance_type = Val::Unknown(compute->range);
      w.complete = false;
    }
    auto stop = Arg(a, {"stopping_condition"});
    if (stop && stop->kind == PyVal::Kind::kCall) {
      Args s = ArgsOf(stop->node, 0);
      w.max_run_seconds = ToVal(Arg(s, {"max_runtime_in_seconds"}));
      w.max_wait_seconds = ToVal(Arg(s, {"max_wait_time_in_seconds"}));
    } else if (!stop) {
      w.max_run_seconds = Val::Known("3600", w.range, "ModelTrainer default");
    } else {
      w.max_run_seconds = Val::Unknown(stop->range);
      w.max_wait_seconds = Val::Unknown(stop->range);
    }
    auto cp = Arg(a, {"checkpoint_config"});
    if (cp && cp->kind == PyVal::Kind::kCall) {
      w.checkpoint = ToVal(Arg(ArgsOf(cp->node, 0), {"s3_uri"}, 0));
    } else {
      w.checkpoint = ToVal(cp);
    }
    w.image = ToVal(Arg(a, {"training_image"}));
    auto image = Arg(a, {"training_image"});
    if (image && !image->framework.empty()) w.framework = Val::Known(image->framework, image->range);
    w.input_mode = ToVal(Arg(a, {"training_input_mode"}));
    ChannelsFromInputs(w, Arg(a, {"input_data_config"}));
  }

  void EmitTraining(int id, WorkloadKind kind, const Object& settings_from, const std::string& what,
                    const std::string& name, TSNode range_call, const std::vector<TSNode>& fits) {
    Workload w = Base(kind, range_call, what, name);
    if (settings_from.kind == ObjKind::kModelTrainer) {
      ModelTrainerSettings(settings_from, w);
    } else {
      EstimatorSettings(settings_from, w);
    }
    if (LocalMode(w.instance_type)) return;
    for (TSNode fit : fits) {
      Args f = ArgsOf(fit, 0);
      ChannelsFromInputs(w, Arg(f, {"inputs", "input_data_config"}, 0));
    }
    (void)id;
    out_->workloads.push_back(std::move(w));
  }

  std::string NameOf(const Object& o, const char* fallback) const {
    return o.var.empty() ? fallback : o.var;
  }

  void EmitPredictor(const Object& p) {
    Args a = ArgsOf(p.call, 0);
    auto endpoint = Arg(a, {"endpoint_name"});
    std::string name = !p.var.empty() ? p.var : (endpoint && endpoint->known() ? endpoint->text : "deploy");
    Workload w = Base(WorkloadKind::kEndpointVariant, p.call, "endpoint variant", name + "/AllTraffic");
    w.complete = !a.unknown_spread;
    w.instance_type = ToVal(Arg(a, {"instance_type"}, 1));
    w.instance_count = ToVal(Arg(a, {"initial_instance_count"}, 0));
    w.accelerator_type = ToVal(Arg(a, {"accelerator_type"}));
    if (auto s = Arg(a, {"serverless_inference_config"}); s && s->kind != PyVal::Kind::kNone) {
      w.serverless = s->kind == PyVal::Kind::kCall ? Val::Known("true", s->range) : Val::Unknown(s->range);
    }
    if (auto s = Arg(a, {"async_inference_config"}); s && s->kind != PyVal::Kind::kNone) {
      w.async_inference = Val::Known("true", s->range);
    }
    if (LocalMode(w.instance_type)) return;
    w.variant_name = Val::Known("AllTraffic", w.range);
    if (endpoint && endpoint->known()) {
      w.endpoint_name = ToVal(endpoint);
      w.keys.push_back("endpoint:" + endpoint->text + "/variant/AllTraffic");
    }
    if (!p.var.empty()) w.keys.push_back("ref:" + file_.path + "#" + p.var + "/variant/AllTraffic");
    if (p.source >= 0) SourceImage(objects_[p.source], w);
    out_->workloads.push_back(std::move(w));
  }

  // The framework / image of the model or estimator a deploy or transformer uses.
  void SourceImage(const Object& src, Workload& w) {
    Args a = ArgsOf(src.call, 0);
    auto image = src.kind == ObjKind::kModelTrainer ? Arg(a, {"training_image"}) : Arg(a, {"image_uri", "image_name", "image"});
    w.image = ToVal(image);
    if (!src.framework.empty()) {
      w.framework = Val::Known(src.framework, w.range, "class " + src.cls);
    } else if (image && !image->framework.empty()) {
      w.framework = Val::Known(image->framework, image->range, "image_uris.retrieve");
    }
  }

  void EmitProcessor(const Object& o) {
    Args a = ArgsOf(o.call, 0);
    Workload w = Base(WorkloadKind::kProcessingJob, o.call, o.cls + " processor", NameOf(o, "processor"));
    w.complete = !a.unknown_spread;
    w.instance_type = ToVal(Arg(a, {"instance_type"}));
    w.instance_count = ToVal(Arg(a, {"instance_count"}));
    w.volume_gb = ToVal(Arg(a, {"volume_size_in_gb"}));
    w.image = ToVal(Arg(a, {"image_uri"}));
    if (!o.framework.empty()) w.framework = Val::Known(o.framework, w.range, "class " + o.cls);
    if (LocalMode(w.instance_type)) return;
    for (TSNode run : o.fits) {
      Args r = ArgsOf(run, 0);
      auto inputs = Arg(r, {"inputs"});
      if (!inputs || inputs->kind != PyVal::Kind::kList) continue;
      for (const PyVal& in : inputs->list) {
        if (in.kind != PyVal::Kind::kCall || in.callee != "ProcessingInput") continue;
        Args p = ArgsOf(in.node, 0);
        Channel c;
        c.range = in.range;
        auto n = Arg(p, {"input_name"});
        c.name = n && n->known() ? n->text : "input";
        c.s3_uri = ToVal(Arg(p, {"source"}, 0));
        c.input_mode = ToVal(Arg(p, {"s3_input_mode"}));
        c.distribution = ToVal(Arg(p, {"s3_data_distribution_type"}));
        w.complete = w.complete && !p.unknown_spread;
        w.channels.push_back(std::move(c));
      }
    }
    out_->workloads.push_back(std::move(w));
  }

  void EmitTransformer(const Object& o) {
    Args a = ArgsOf(o.call, 0);
    Workload w = Base(WorkloadKind::kTransformJob, o.call, "Transformer", NameOf(o, "transformer"));
    w.complete = !a.unknown_spread;
    bool method = o.source >= 0;
    w.instance_count = ToVal(Arg(a, {"instance_count"}, method ? 0 : 1));
    w.instance_type = ToVal(Arg(a, {"instance_type"}, method ? 1 : 2));
    if (LocalMode(w.instance_type)) return;
    if (o.source >= 0) SourceImage(objects_[o.source], w);
    out_->workloads.push_back(std::move(w));
  }

  // ---- boto3 ---------------------------------------------------------------
  struct ClientCall {
    std::string method;
    TSNode call;
    std::string service;
  };

  // The request of a boto3 call as a tree the PascalCase mapper reads.
  cfn::Node RequestNode(TSNode call, bool* complete) {
    Args a = ArgsOf(call, 0);
    *complete = !a.unknown_spread;
    cfn::Node root;
    root.kind = cfn::Node::Kind::kMap;
    root.pos = R(call).begin;
    auto add = [&](const std::string& k, const PyVal& v) {
      root.entries.emplace_back(k, ToNode(v, complete, 0));
      root.key_pos.push_back(v.range.begin);
    };
    for (const auto& [k, node] : a.keywords) add(k, Eval(node));
    for (const auto& [k, v] : a.spread) add(k, v);
    return root;
  }

  cfn::Node ToNode(const PyVal& v, bool* complete, int depth) {
    cfn::Node n;
    n.pos = v.range.begin;
    if (depth > 32) {
      n.kind = cfn::Node::Kind::kScalar;
      n.text = std::string(kUnknownMarker);
      return n;
    }
    switch (v.kind) {
      case PyVal::Kind::kDict:
        n.kind = cfn::Node::Kind::kMap;
        if (!v.complete) *complete = false;
        for (const auto& [k, x] : v.dict) {
          n.entries.emplace_back(k, ToNode(x, complete, depth + 1));
          n.key_pos.push_back(x.range.begin);
        }
        return n;
      case PyVal::Kind::kList:
        n.kind = cfn::Node::Kind::kSeq;
        for (const PyVal& x : v.list) n.items.push_back(ToNode(x, complete, depth + 1));
        return n;
      case PyVal::Kind::kNone:
        n.kind = cfn::Node::Kind::kNull;
        return n;
      default:
        n.kind = cfn::Node::Kind::kScalar;
        n.text = v.known() ? v.text : std::string(kUnknownMarker);
        n.tag = v.origin;  // carried to the value function for `origin`
        if (!v.script.empty()) n.tag = "script:" + v.script;
        return n;
    }
  }

  void EmitClientCalls() {
    cfn::ValueFn value = cfn::PlainValue;
    // Endpoint names by endpoint config name, from create_endpoint calls.
    std::map<std::string, std::vector<std::string>> endpoints;
    for (const ClientCall& c : client_calls_) {
      if (c.method != "create_endpoint") continue;
      bool complete = true;
      cfn::Node req = RequestNode(c.call, &complete);
      Val name = value(req.Get("EndpointName"));
      Val config = value(req.Get("EndpointConfigName"));
      if (name.known() && config.known()) endpoints[config.text].push_back(name.text);
    }
    for (const ClientCall& c : client_calls_) {
      bool complete = true;
      cfn::Node req = RequestNode(c.call, &complete);
      auto request_name = [&](const char* key) {
        Val v = value(req.Get(key));
        return v.known() ? v.text : std::string("request");
      };
      std::string label = "boto3 " + c.method;
      std::vector<Workload> made;
      if (c.service == "sagemaker") {
        cfn::RequestKind kind = c.method == "create_training_job"                   ? cfn::RequestKind::kTraining
                                : c.method == "create_hyper_parameter_tuning_job"   ? cfn::RequestKind::kTuning
                                : c.method == "create_processing_job"               ? cfn::RequestKind::kProcessing
                                : c.method == "create_transform_job"                ? cfn::RequestKind::kTransform
                                                                                     : cfn::RequestKind::kNone;
        if (kind != cfn::RequestKind::kNone) {
          const char* key = kind == cfn::RequestKind::kTraining     ? "TrainingJobName"
                            : kind == cfn::RequestKind::kTuning     ? "HyperParameterTuningJobName"
                            : kind == cfn::RequestKind::kProcessing ? "ProcessingJobName"
                                                                    : "TransformJobName";
          Workload base = Base(WorkloadKind::kTrainingJob, c.call, label, request_name(key));
          cfn::MapRequest(kind, req, value, base, &made);
        } else if (c.method == "create_notebook_instance") {
          Workload w = Base(WorkloadKind::kNotebookInstance, c.call, label, request_name("NotebookInstanceName"));
          w.instance_type = value(req.Get("InstanceType"));
          w.volume_gb = value(req.Get("VolumeSizeInGB"));
          w.lifecycle_config = value(req.Get("LifecycleConfigName"));
          if (w.lifecycle_config.known()) w.refs.push_back("lc:" + w.lifecycle_config.text);
          if (const cfn::Node* acc = req.Get("AcceleratorTypes"); acc && acc->is_seq() && !acc->items.empty()) {
            w.accelerator_type = value(&acc->items[0]);
          }
          made.push_back(std::move(w));
        } else if (c.method == "create_notebook_instance_lifecycle_config") {
          Workload w = Base(WorkloadKind::kLifecycleScript, c.call, label,
                            request_name("NotebookInstanceLifecycleConfigName"));
          Val name = value(req.Get("NotebookInstanceLifecycleConfigName"));
          if (name.known()) w.keys.push_back("lc:" + name.text);
          w.on_start = Script(req.Get("OnStart"));
          w.on_create = Script(req.Get("OnCreate"));
          made.push_back(std::move(w));
        } else if (c.method == "create_endpoint_config") {
          EndpointConfigVariants(req, c.call, label, value, endpoints, &made);
        }
      } else if (c.method == "register_scalable_target") {
        Workload w = Base(WorkloadKind::kScalableTarget, c.call, label, request_name("ResourceId"));
        w.service_namespace = value(req.Get("ServiceNamespace"));
        w.scalable_dimension = value(req.Get("ScalableDimension"));
        w.min_capacity = value(req.Get("MinCapacity"));
        w.max_capacity = value(req.Get("MaxCapacity"));
        w.resource_id = value(req.Get("ResourceId"));
        ScalableTargetRefs(c.call, w);
        made.push_back(std::move(w));
      }
      for (Workload& w : made) {
        if (!complete) w.complete = false;
        if (LocalMode(w.instance_type)) continue;
        out_->workloads.push_back(std::move(w));
      }
    }
  }

  Val Script(const cfn::Node* hooks) {
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

  void EndpointConfigVariants(const cfn::Node& req, TSNode call, const std::string& label, const cfn::ValueFn& value,
                              const std::map<std::string, std::vector<std::string>>& endpoints,
                              std::vector<Workload>* made) {
    Val config = value(req.Get("EndpointConfigName"));
    const cfn::Node* variants = req.Get("ProductionVariants");
    if (!variants || !variants->is_seq()) return;
    for (const cfn::Node& v : variants->items) {
      Val vname = value(v.Get("VariantName"));
      std::string name = (config.known() ? config.text : "request") + "/" + (vname.known() ? vname.text : "?");
      Workload w = Base(WorkloadKind::kEndpointVariant, call, "endpoint variant", name);
      w.label = label + " variant '" + name + "'";
      w.variant_name = vname;
      w.instance_type = value(v.Get("InstanceType"));
      w.instance_count = value(v.Get("InitialInstanceCount"));
      w.accelerator_type = value(v.Get("AcceleratorType"));
      if (const cfn::Node* s = v.Get("ServerlessConfig")) w.serverless = Val::Known("true", {s->pos, s->pos});
      if (const cfn::Node* m = v.Get("ManagedInstanceScaling")) w.managed_scaling = value(m->Get("Status"));
      if (const cfn::Node* as = req.Get("AsyncInferenceConfig")) w.async_inference = Val::Known("true", {as->pos, as->pos});
      if (config.known() && vname.known()) {
        auto it = endpoints.find(config.text);
        if (it != endpoints.end()) {
          for (const std::string& e : it->second) w.keys.push_back("endpoint:" + e + "/variant/" + vname.text);
        }
      }
      made->push_back(std::move(w));
    }
  }

  void ScalableTargetRefs(TSNode call, Workload& w) {
    Args a = ArgsOf(call, 0);
    auto id = Arg(a, {"ResourceId"});
    if (!id) return;
    std::string text = id->known() ? id->text : id->link;
    size_t v = text.find("/variant/");
    if (text.rfind("endpoint/", 0) != 0 || v == std::string::npos) return;
    std::string endpoint = text.substr(9, v - 9);
    std::string variant = text.substr(v + 9);
    if (variant.find(kUnknownMarker) != std::string::npos) return;
    if (endpoint.size() > 2 && endpoint.front() == kRefMark && endpoint.back() == kRefMark) {
      w.refs.push_back("ref:" + file_.path + "#" + endpoint.substr(1, endpoint.size() - 2) + "/variant/" + variant);
    } else if (endpoint.find(kRefMark) == std::string::npos && endpoint.find(kUnknownMarker) == std::string::npos) {
      w.refs.push_back("endpoint:" + endpoint + "/variant/" + variant);
    }
  }

  // ---- pass 3: workloads -----------------------------------------------------
  void Emit() {
    for (size_t i = 0; i < objects_.size(); ++i) {
      const Object& o = objects_[i];
      switch (o.kind) {
        case ObjKind::kEstimator:
          // An estimator only tuned is reported as the tuning job.
          if (!o.tuned || o.fit_directly) {
            EmitTraining(static_cast<int>(i), WorkloadKind::kTrainingJob, o, o.cls + " estimator",
                         NameOf(o, "estimator"), o.call, o.fits);
          }
          break;
        case ObjKind::kModelTrainer:
          EmitTraining(static_cast<int>(i), WorkloadKind::kTrainingJob, o, "ModelTrainer", NameOf(o, "trainer"),
                       o.call, o.fits);
          break;
        case ObjKind::kTuner:
          if (o.source >= 0) {
            EmitTraining(static_cast<int>(i), WorkloadKind::kTuningJob, objects_[o.source], "HyperparameterTuner",
                         NameOf(o, "tuner"), o.call, o.fits);
          }
          break;
        case ObjKind::kProcessor: EmitProcessor(o); break;
        case ObjKind::kTransformer: EmitTransformer(o); break;
        case ObjKind::kPredictor: EmitPredictor(o); break;
        default: break;
      }
    }
    EmitClientCalls();
  }

  const SourceFile& file_;
  std::string_view src_;
  const NotebookSource* nb_;
  FileResult* out_;
  std::map<std::string, std::string> imports_;
  std::map<std::string, std::vector<TSNode>> bindings_;
  std::set<std::string> evaluating_;
  std::vector<TSNode> calls_;
  std::vector<Object> objects_;
  std::map<uint32_t, int> call_object_;
  std::map<std::string, std::vector<std::pair<uint32_t, int>>> var_objects_;
  std::vector<ClientCall> client_calls_;
};

void Analyze(const SourceFile& file, std::string_view src, const NotebookSource* nb, FileResult* out) {
  ts::Tree tree = ts::Parse(tree_sitter_python(), src, kDeadlineMs);
  if (!tree) {
    out->errors.push_back({"parsing took too long; file skipped", {1, 1}});
    return;
  }
  TSNode root = ts_tree_root_node(tree.get());
  if (auto err = ts::FirstError(root, src)) {
    SourceRange r{err->pos, err->pos};
    if (nb) r = MapRange(*nb, r);
    std::string where = r.cell > 0 ? " (cell " + std::to_string(r.cell) + ", line " + std::to_string(r.cell_line) + ")" : "";
    out->errors.push_back({err->message + where, r.begin});
  }
  Analyzer(file, src, nb, out).Run(root);
}

std::string_view StripBom(std::string_view s) { return s.substr(0, 3) == "\xEF\xBB\xBF" ? s.substr(3) : s; }

}  // namespace
}  // namespace py

FileResult ParsePython(const SourceFile& file, const ResolveOptions&) {
  FileResult out;
  out.path = file.path;
  out.format = Format::kPython;
  if (file.text.size() > py::kMaxBytes) {
    out.errors.push_back({"file larger than 8 MiB; not parsed", {1, 1}});
    return out;
  }
  py::Analyze(file, py::StripBom(file.text), nullptr, &out);
  return out;
}

FileResult ParseNotebook(const SourceFile& file, const ResolveOptions&) {
  FileResult out;
  out.path = file.path;
  out.format = Format::kNotebook;
  py::NotebookSource nb;
  ParseError error;
  if (!py::ExtractNotebook(py::StripBom(file.text), &nb, &error)) {
    out.errors.push_back(error);
    return out;
  }
  if (nb.python.size() > py::kMaxBytes) {
    out.errors.push_back({"notebook code larger than 8 MiB; not parsed", {1, 1}});
    return out;
  }
  py::Analyze(file, nb.python, &nb, &out);
  return out;
}

}  // namespace sagelint
