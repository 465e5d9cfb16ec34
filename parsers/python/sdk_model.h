// The SageMaker SDK and boto3 model: a `Library` the interpreter asks about
// the calls, methods and attributes of the SDK's classes and boto3 clients.
// It holds what the code makes of them (objects, client requests, endpoint
// deletes) and turns that into workloads once the file has run (emit.cc).
//
//   sdk.cc      the model's calls, methods and attributes (the `Library` hooks)
//   emit.cc     objects and client calls -> workloads
//   literal.cc  the delete statements fixes insert
#ifndef SAGELINT_PARSERS_PYTHON_SDK_MODEL_H_
#define SAGELINT_PARSERS_PYTHON_SDK_MODEL_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "parsers/python/analyzer.h"

namespace sagelint::aws {
struct Resource;
}  // namespace sagelint::aws

namespace sagelint::py {

enum class ObjKind : uint8_t {
  kEstimator,
  kModelTrainer,
  kModel,  // a model, an attached/best estimator, a built ModelBuilder model
  kModelBuilder,
  kProcessor,
  kTuner,
  kTransformer,
  kPredictor,  // deploy() result, or Predictor(name) attached to an endpoint
  kClient,     // boto3 client
  kBotoSession,
  kSession,   // sagemaker.Session / LocalSession
  kRemote,    // a @remote function or a RemoteExecutor: a training job per call
  kResource,  // a sagemaker.core resource (EndpointConfig.create(...), TrainingJob.get(...)): `cls` names it
};

struct Object {
  ObjKind kind = ObjKind::kEstimator;
  std::string cls;      // "PyTorch", "boto3 client"
  std::string var;      // the variable it was first bound to
  TSNode call{};        // the constructor / deploy / client call
  Args args;            // its arguments as evaluated there
  std::string service;  // clients: "sagemaker", "application-autoscaling"
  std::string framework;
  int source = -1;  // tuner: estimator / trainer; predictor, model, transformer: what it came from
  bool fit_directly = false;
  bool tuned = false;
  bool expected_to_fail = false;  // created inside pytest.raises / assertRaises
  bool local = false;             // local mode (LocalSession, Mode.LOCAL_CONTAINER)
  bool attached = false;          // Predictor(name): an existing endpoint, not a deploy
  std::vector<Args> fits;         // fit / train / run / tune calls
  std::vector<Args> builds;       // ModelBuilder.build() arguments (mode)
  Order order;
  std::string key;               // predictors: the link key "ref:<path>#<var>@<line>:<col>"
  VId value = kUnknown;          // the value standing for the object
  bool jumpstart = false;        // JumpStart fills what is not written (from_jumpstart_config, JumpStartModel)
  bool recommended = false;      // ModelBuilder.from_recommendation_job: the job's recommendation fills the deploy
  std::vector<int> chosen_from;  // the other objects one of which deployed this predictor (chosen at run time)
  // A model-customization trainer (SDK v3 SFTTrainer, DPOTrainer, …): a training
  // job only with TrainingJobCompute (serverless or on a HyperPod cluster otherwise).
  bool customization = false;
  // Created while a same-file helper ran for the call `via` (one call deep):
  // reported at that call, `helper` naming the helper and where it creates it.
  TSNode via{};
  std::string helper;
  int run = -1;                           // the helper run that made it (Analyzer::run_args_)
  std::optional<std::string> helper_var;  // the helper's own variable for it, when the call's assignment renamed it
  // Pipeline steps (docs/python.md "Pipelines"): the @step jobs this object's
  // arguments reference (a step's output as an instance count); for a @step
  // function, how many pipelines the code builds with it under a local session
  // and under another (or an unknown) one.
  std::vector<int> steps;
  int local_pipelines = 0;
  int cloud_pipelines = 0;
};

struct ClientCall {
  std::string method;
  std::string service;
  Args args;
  Order order;
  TSNode via{};  // as Object::via
  std::string helper;
  std::string api;  // what the code calls when it is not a boto3 client: "TrainingJob.create"
  int run = -1;     // as Object::run
};

// An endpoint delete seen in the file (SM213).
struct Delete {
  Order order;
  std::vector<int> objects;        // predictors deleted through their object
  std::vector<std::string> names;  // endpoint names deleted by name (literal, or shared: "%store:…", "file:…")
  std::vector<VId> name_values;    // names known only at run time: matched by identity
  // The names, known only at run time, of the endpoints of the predictors it deletes
  // (`p.delete_endpoint()` where `p` deployed to `endpoint_name=name`): by identity.
  std::vector<VId> object_name_values;
  bool unknown = false;  // a delete whose target cannot be resolved
  bool all = false;      // every endpoint list_endpoints() returns …
  std::string contains;  // … whose name contains this (NameContains)
  std::string dead;      // why it cannot run ("runs only when `X` is true, and it is False")
  SourceRange at;        // the delete call
};

bool IsRelevantName(std::string_view name);  // sdk.cc
// The methods that delete a predictor's endpoint (SDK v2 and v3).
inline bool IsDeleteMethod(std::string_view m) {
  return m == "delete_endpoint" || m == "delete" || m == "delete_predictor";
}
// `sagemaker.remote_function.remote` and its other import paths (sdk.cc).
bool IsRemoteDecorator(std::string_view qualified);

class SdkModel final : public Library {
 public:
  explicit SdkModel(Analyzer& a) : a_(a), g_(a.g_) {}
  SdkModel(const SdkModel&) = delete;
  SdkModel& operator=(const SdkModel&) = delete;

  // ---- Library ---------------------------------------------------------------
  bool Call(Analyzer& a, const std::string& qualified, TSNode call, Args& args, VId* result) override;
  bool Method(Analyzer& a, VId receiver, std::string_view method, TSNode call, Args& args, VId* result) override;
  bool Attribute(Analyzer& a, VId object, std::string_view name, TSNode node, VId* result) override;
  bool Uncalled(Analyzer& a, VId object, std::string_view name, TSNode node, VId* result) override;
  bool Decorator(Analyzer& a, VId decorator, TSNode at, int* handle) override;
  void Decorated(Analyzer& a, int handle, int function) override;
  bool CallFunction(Analyzer& a, int function, TSNode call, Args& args, VId* result) override;
  bool SetAttribute(Analyzer& a, VId object, const std::string& name, Ev value) override;
  std::string StarName(std::string_view module, std::string_view name) override;
  bool RelevantName(std::string_view name) override;
  bool Owns(std::string_view qualified) override;
  bool CallValue(Analyzer& a, VId callee, TSNode call, Args& args, VId* result) override;
  bool Alternatives(Analyzer& a, VId receiver, std::string_view method, TSNode call, Args& args, VId* result) override;
  bool Unresolved(Analyzer& a, VId receiver, std::string_view method, TSNode call, Args& args, VId* result) override;
  std::string SharedLink(std::string_view name) override;
  std::string Link(Analyzer& a, VId v) override;
  bool Each(Analyzer& a, VId iterable, VId* element) override;
  bool Item(Analyzer& a, VId container, VId key, VId* result) override;
  void Returned(Analyzer& a, VId result, int run, const std::string& target) override;
  void DeadCall(Analyzer& a, TSNode call, const std::string& why) override;
  bool ReadNow(std::string_view method) override;
  bool MethodValue(Analyzer& a, VId v) override;
  bool Makes(std::string_view qualified) override;
  bool Made(Analyzer& a, const std::string& qualified, VId* result) override;

  Analyzer& a_;       // the interpreter running the file
  const Grammar& g_;  // its grammar
  std::vector<Object> objects_;
  std::vector<ClientCall> client_calls_;
  std::vector<Delete> deletes_;
  std::map<int, int> session_clients_;    // session object -> its sagemaker_client object
  std::map<int, int> session_boto_;       // session object -> its boto_session object
  std::set<VId> endpoint_name_values_;    // unknown endpoint names of deploys (matched by identity)
  std::set<std::string> endpoint_names_;  // known endpoint names of deploys

  // ---- pipeline steps --------------------------------------------------------------
  // A value that stands for pipeline steps (a @step function's output, a step
  // built from one, a property of one) -> the @step jobs it includes.
  std::map<VId, std::vector<int>> step_deps_;
  void StepDeps(VId v, std::set<int>* out, int depth = 0) const;
  void StepDeps(const Args& a, std::set<int>* out) const;
  VId StepValue(const std::set<int>& deps);
  // `Pipeline(steps=…, sagemaker_session=…)`: its @step jobs run locally or in the cloud.
  void PipelineSteps(const Args& args);

  // ---- sdk.cc ------------------------------------------------------------------
  std::string MadeBy(TSNode call) const;                       // "made by helper f() at line N" while a helper runs
  VId SdkCall(const std::string& q, TSNode call, Args& args);  // the SDK model's part
  VId SdkClassCall(const std::string& q, TSNode call, Args& args);
  VId SdkFactoryCall(const std::string& q, const std::string& cls, const std::string& owner, Object& o, TSNode call,
                     Args& args);
  VId SdkAttribute(VId object, std::string_view name);  // the SDK model's attributes of its objects
  VId SdkAlternativesMethod(VId receiver, std::string_view method, TSNode call, Args& args);
  bool SdkCallValue(VId callee, TSNode call, Args& args, VId* result);
  VId SdkUnresolvedMethod(VId receiver, std::string_view method, TSNode call, Args& args);
  bool SdkUncalled(VId object, std::string_view name, TSNode node, VId* result);
  int SdkDecorator(VId decorator, TSNode at);  // a @remote / @step object, else -1
  VId SdkRemoteCall(int function, TSNode call, Args& args);
  VId ObjectMethod(int obj, std::string_view method, TSNode call, Args& args);
  VId Helper(const std::string& cls, Args& args);
  // sagemaker.core resources: `Resource.create(...)` sends the boto3 request of that
  // name (recorded as a client call), `Resource.get(...)` names an existing one.
  VId CoreResourceCall(const std::string& q, TSNode call, Args& args);
  VId CoreRequestValue(VId v, int depth);
  int NewObject(Object o, TSNode call);
  VId ObjectValue(int obj);
  // The model's own values (Analyzer::LibraryValue): an object (Role::kObject,
  // `ref` its index in objects_), or what stands for one in strings
  // (Role::kToken: `predictor.endpoint_name`, the endpoint of predictor `ref`).
  bool IsObject(const Value& x) const { return x.kind == VK::kLibrary && x.owner == this && x.role == Role::kObject; }
  bool IsObject(VId v) const { return a_.store_.Kind(v) == VK::kLibrary && IsObject(a_.V(v)); }
  bool IsRef(const Value& x) const { return x.kind == VK::kLibrary && x.owner == this && x.role == Role::kToken; }
  bool IsLocalValue(VId v) const;
  void RecordDelete(VId target, TSNode call);
  // A delete of `target` (a predictor, an endpoint name) through `call`.
  Delete MakeDelete(VId target, TSNode call);
  // The name a value shares with other notebooks through a file ("%store:…",
  // "file:…#key"), or empty.
  std::string SharedName(VId v) const;

  // ---- literal.cc: the delete statements of fixes ------------------------------
  // boto3 request values with a literal site, by the position of their node.
  std::map<std::pair<int, int>, SourceRange> request_literals_;
  // A statement that deletes the endpoint predictor `id` deployed, in the
  // code's own names; empty where the code names nothing usable.
  // Where the predictor's name is bound again later, a module-level deploy
  // statement `name = ….deploy(…)` keeps it under a new name: `capture` is
  // that line ("endpoint_1 = endpoint"), to insert after `capture_at`, and
  // the statement names the new one.
  std::string PredictorDeleteStatement(int id, std::string* capture = nullptr, SourceRange* capture_at = nullptr) const;
  mutable std::set<std::string> capture_names_;  // the names captures took
  // A predictor made in a module-level `loop`: a loop over the list it fills, or empty.
  std::string LoopListDelete(const Object& p, TSNode loop, const std::string& method) const;
  // `client.delete_endpoint(EndpointName="name")` for an endpoint a boto3
  // create_endpoint `call` made under the known `name`.
  std::string ClientDeleteStatement(TSNode call, const std::string& name, bool expression = false) const;
  // The same for a name known only at run time: `client.delete_endpoint(EndpointName=endpoint_name)`
  // where the module-level `variable` still holds the name `value` the call used when the code has run.
  std::string RunTimeNameDeleteStatement(TSNode call, const std::string& variable, VId value) const;

  // ---- emit.cc ---------------------------------------------------------------
  void Emit();
  std::optional<Ev> Arg(const Args& a, std::initializer_list<std::string_view> names, int position = -1) const;
  Val ToVal(const std::optional<Ev>& e) const;
  // A workload of `kind` at `call`, labelled `what 'name'`, or — when the code
  // names nothing (`name` empty) — `what created by <the call>`.
  Workload Base(WorkloadKind kind, TSNode call, const std::string& what, const std::string& name) const;
  bool Submitted(const Object& o) const;  // a training object that runs a job (or may)
  void EmitTraining(const Object& settings_from, WorkloadKind kind, const std::string& what, const std::string& name,
                    TSNode range_call, const std::vector<Args>& fits);
  void EstimatorSettings(const Object& o, Workload& w);
  void ModelTrainerSettings(const Object& o, Workload& w);
  void InstanceGroups(const std::optional<Ev>& groups, Workload& w);
  void AddChannel(Workload& w, const std::string& name, const Ev& v);
  void ChannelsFromInputs(Workload& w, const std::optional<Ev>& inputs);
  void EmitProcessor(const Object& o);
  void EmitTransformer(const Object& o);
  void EmitPredictor(int id);
  void SourceImage(const Object& src, Workload& w);
  void EmitClientCalls();
  // A create_endpoint or update_endpoint client call, as the configurations it deploys see it.
  struct BotoEndpointCall {
    Val name;
    Val config;
    VId name_v = kUnknown;
    VId config_v = kUnknown;
    Order order;
    TSNode call{};
    std::string name_text;  // what the EndpointName argument is written as
    bool update = false;    // update_endpoint: the endpoint exists already
  };
  std::vector<BotoEndpointCall> EndpointCalls(const std::vector<cfn::Node>& requests, const aws::ValueFn& value) const;
  void EmitEndpointConfigVariants(size_t i, const std::vector<cfn::Node>& requests,
                                  const std::vector<BotoEndpointCall>& endpoints, const aws::Resource& resource,
                                  const std::string& label, const aws::ValueFn& value, std::vector<Workload>* out);
  cfn::Node RequestNode(const Args& a, bool* complete);
  cfn::Node ToNode(const Ev& e, bool* complete, int depth, long* budget);
  Val Script(const cfn::Node* hooks);
  void FillCells(Workload& w) const;
  bool LocalWorkload(Workload& w) const;
  Val DeletedState(const Workload& w, const std::vector<int>& objects, const std::vector<std::string>& names,
                   const std::vector<VId>& name_values, Order deployed) const;
  // The endpoint names and name values a deploy's `endpoint_name` gives.
  void EndpointNames(const std::optional<Ev>& e, std::vector<std::string>* names, std::vector<VId>* values) const;
  void WorkflowDeletes();
  // What a label says for an object the code names nothing for: the call.
  std::string CallText(TSNode call) const;
  std::string Where(const SourceRange& r) const;  // "in cell 9" / "at line 40"
  // Workloads a helper made for the call `via`: placed at the call.
  void PlaceAtCall(Workload& w, TSNode via, const std::string& helper) const;
  void EmitObject(size_t i);
  // A workload a helper run made: out_->workloads[index], made at `site` (the
  // helper's call that creates it; `k`: its rank among that call's workloads).
  struct HelperMade {
    size_t index = 0;
    TSNode via{};
    std::string helper;
    bool reads = false;  // it reads a value of an argument the call passes
    uint32_t site = 0;
    int k = 0;
    std::string own_name, own_label;  // when reported once: its name as the helper writes it
    int object = -1;                  // the object that made it (none: a boto3 request)
  };
  std::vector<HelperMade> helper_made_;
  void PlaceHelperWorkloads();
  static std::string Signature(const Workload& w);
  // While a helper's workload is built: the values of its run's arguments, and
  // whether the workload read one (ToVal, and request values by position).
  mutable const std::unordered_set<VId>* reading_ = nullptr;
  mutable bool read_arg_ = false;
  std::set<std::pair<int, int>>* tainted_nodes_ = nullptr;
  void EmitRemote(const Object& o);
  // The text a boto3 request's name argument is written as: the literal, else the
  // variable or attribute that holds it, else the call.
  std::string RequestName(const Args& a, const char* key, const Val& known) const;
};

}  // namespace sagelint::py

#endif  // SAGELINT_PARSERS_PYTHON_SDK_MODEL_H_
