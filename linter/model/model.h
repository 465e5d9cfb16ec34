// The normalized workload model. Every front end (CloudFormation, Terraform,
// Python/notebooks) fills it; rules read nothing else.
#ifndef SAGELINT_LINTER_MODEL_MODEL_H_
#define SAGELINT_LINTER_MODEL_MODEL_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sagelint {

// 1-based line and column (columns count bytes) in the file as stored.
struct SourcePos {
  int line = 0;
  int column = 0;
  bool valid() const { return line > 0; }
  bool operator==(const SourcePos&) const = default;
};

struct SourceRange {
  SourcePos begin;
  SourcePos end;
  // Notebooks only: 1-based cell index (markdown cells counted) and 1-based
  // line inside that cell for `begin`; 0 elsewhere.
  int cell = 0;
  int cell_line = 0;
  bool valid() const { return begin.valid(); }
  bool operator==(const SourceRange&) const = default;
};

// One extracted setting. A value is absent (not written), unknown (written,
// but not resolvable statically) or known (a literal or a resolved value).
// A conditional value (CloudFormation Fn::If, a Terraform conditional) holds
// its alternatives, each with the condition under which it applies.
struct Val {
  enum class State : std::uint8_t { kAbsent, kUnknown, kKnown };

  State state = State::kAbsent;
  std::string text;       // the known value; numbers in decimal, booleans "true"/"false"
  SourceRange range;      // where the setting is written
  std::string origin;     // how a non-literal was resolved, e.g. "parameter InstanceType default"
  std::string condition;  // for an alternative: when it applies, e.g. "condition UseGpu is true"
  std::vector<Val> alternatives;
  // Where a known value is written as one literal that a fix may edit (README "Fixes"): the token
  // as stored, quotes included, in `literal_path` (a display path; empty: the workload's own file).
  // Invalid when the value is computed, comes from outside the files (--param, --var), or its
  // literal is read by something else too (a parameter, variable or constant used twice). For an
  // absent setting: the call a fix adds it to where that is not the workload's own range (the
  // estimator a tuning job runs, rules/SM401.md).
  SourceRange literal;
  std::string literal_path;

  static Val Known(std::string text, SourceRange range = {}, std::string origin = {});
  static Val Unknown(SourceRange range = {}, std::string why = {});
  static Val Absent(SourceRange range = {});
  // A value that is one of `alts`; collapses to the single alternative if only one.
  static Val OneOf(std::vector<Val> alts, SourceRange range = {});

  bool known() const { return state == State::kKnown && alternatives.empty(); }
  bool unknown() const { return state == State::kUnknown; }
  bool absent() const { return state == State::kAbsent; }
  bool present() const { return state != State::kAbsent; }
  bool conditional() const { return !alternatives.empty(); }

  // Known numeric / boolean readings; nullopt when unknown, absent or not of that type.
  std::optional<double> number() const;
  std::optional<bool> boolean() const;

  // Calls `fn` for each alternative (or for this value when unconditional).
  void ForEach(const std::function<void(const Val&)>& fn) const;
  // True if any alternative is unknown.
  bool AnyUnknown() const;
};

enum class Format : std::uint8_t { kCloudFormation, kTerraform, kPython, kNotebook, kCdk };
std::string_view FormatName(Format f);  // cloudformation|terraform|python|notebook|cdk

enum class WorkloadKind : std::uint8_t {
  kTrainingJob,
  kTuningJob,
  kProcessingJob,
  kTransformJob,
  kNotebookInstance,
  kStudioDomain,
  kStudioUserProfile,
  kStudioSpace,
  kEndpointVariant,
  kScalableTarget,
  kLifecycleScript,
  kIamStatement,
  kStudioApp,           // AWS::SageMaker::App: a running Studio app
  kInferenceComponent,  // a model's copies on an endpoint variant (no instances of its own)
  kHyperPodCluster,     // a HyperPod cluster: its instance groups run until the cluster is deleted
};
std::string_view KindName(WorkloadKind k);  // training_job, tuning_job, ... (docs/policies.md)
std::optional<WorkloadKind> KindFromName(std::string_view name);
inline constexpr int kWorkloadKindCount = 15;

// One of several workloads a single source construct makes (README "Usage"): a
// Terraform count/for_each instance, or one branch of a resource whose whole
// Properties are conditional. Their identical findings are reported once, at
// the construct.
struct ConstructMember {
  enum class Kind : std::uint8_t { kNone, kInstance, kAlternative };
  Kind kind = Kind::kNone;
  std::string construct;  // "aws_sagemaker_notebook_instance.lab"; a conditional resource's logical ID
  std::string key;        // an instance key as written ("\"ana\"", "0"); a branch's condition
  int of = 0;             // how many instances or branches the construct makes
  bool operator==(const ConstructMember&) const = default;
};

// A training channel or a processing input.
struct Channel {
  std::string name;  // channel name ("train") or processing input name
  Val s3_uri;
  Val input_mode;            // File | Pipe | FastFile; absent = inherits the job's mode
  Val distribution;          // FullyReplicated | ShardedByS3Key; absent = FullyReplicated
  Val dataset_size_gb;       // from an inline `sagelint:dataset-size=` annotation
  bool file_system = false;  // FileSystemInput (EFS / FSx): no download
  SourceRange range;
  Val s3_data_type;   // S3Prefix | ManifestFile | AugmentedManifestFile; absent = S3Prefix
  bool code = false;  // the job's code or configuration, which every instance needs (rules/SM303.md)
};

// A Studio app settings block (JupyterLab, CodeEditor, KernelGateway) of a
// domain, user profile or space, or of a domain's default space settings.
struct StudioApp {
  std::string app;      // "JupyterLab", "CodeEditor", "KernelGateway"
  std::string scope;    // "DefaultUserSettings", "DefaultSpaceSettings", "UserSettings", "SpaceSettings"
  Val instance_type;    // DefaultResourceSpec.InstanceType
  Val idle_management;  // AppLifecycleManagement.IdleSettings.LifecycleManagement (ENABLED|DISABLED)
  Val idle_timeout_minutes;
  SourceRange range;
};

// One instance group of a heterogeneous training cluster (ResourceConfig.InstanceGroups,
// the SDK's `instance_groups`).
struct InstanceGroup {
  Val name;
  Val instance_type;
  Val instance_count;
  SourceRange range;
};

struct IamCondition {
  std::string op;   // e.g. "ForAllValues:StringLike", "StringEquals", "Null"
  std::string key;  // e.g. "sagemaker:InstanceTypes" (as written)
  std::vector<std::string> values;
  bool known = true;  // false when values could not be resolved
};

struct IamStatement {
  Val effect;                // Allow | Deny
  std::vector<Val> actions;  // Action (or NotAction when not_action)
  bool not_action = false;
  bool actions_complete = true;  // false if some action could not be resolved
  std::vector<Val> resources;    // Resource (or NotResource when not_resource); empty when not written
  bool not_resource = false;
  std::vector<IamCondition> conditions;
  bool conditions_known = true;  // false if the Condition block could not be resolved
  std::string policy;            // the policy / role name the statement belongs to
  std::string managed_policy;    // set when the statement stands for an attached AWS managed policy
  // The AWS service principals ("lambda.amazonaws.com") that alone can assume
  // the role holding the statement, as its trust policy says; empty when
  // unknown, when the holder is not a role, or when anyone else can.
  std::vector<std::string> trusted_services;
};

// Where a workload of a called Terraform module comes from: the root module's
// call that leads to it, and where its values were written outside the
// module's file. `diff` reports a new finding of a module file the change did
// not touch there (README "Adopting it").
struct ModuleCaller {
  std::string path;  // display path of the root module's file with the `module "x" {` block
  SourceRange call;  // that block
  struct Value {
    SourcePos at;      // the value's position in the workload (the module's file)
    std::string path;  // display path of the file that wrote it
    SourceRange src;   // where it wrote it
  };
  std::vector<Value> values;  // positions written in the module's file are not listed
};

struct Workload {
  WorkloadKind kind = WorkloadKind::kTrainingJob;
  Format format = Format::kCloudFormation;
  std::string path;           // as displayed: relative to the working directory, '/' separators
  std::string scope;          // linking scope: the template, module directory or notebook (default: path)
  std::string name;           // logical ID, Terraform address, Python variable or request name
  std::string label;          // for messages: "notebook instance 'Explore'", "SKLearn estimator 'est'"
  SourceRange range;          // the whole resource / call; its first line anchors suppressions
  std::string condition;      // a CloudFormation resource Condition, if any
  ConstructMember member_of;  // set when the construct makes several workloads
  // False when something we cannot see may supply a missing setting (unknown
  // **kwargs, a dynamic block, a spread): absence is then not reportable.
  bool complete = true;
  std::vector<std::string> suppressed;  // rule IDs suppressed by resource metadata
  // Pre-commit: stands for a workload of a file that is not being checked, in
  // the named file that sets some of its values. Only those values carry a
  // position (the workload's own range is invalid), and only findings at one
  // of them are reported.
  bool stand_in = false;
  std::optional<ModuleCaller> module_caller;  // set for a workload of a called Terraform module

  // Compute. A job with instance groups (and a HyperPod cluster) lists each in
  // `instance_groups`; its own instance_type and instance_count are then absent.
  Val instance_type;
  Val instance_count;
  Val volume_gb;
  std::vector<InstanceGroup> instance_groups;

  // Container.
  Val image;
  Val framework;  // sklearn, xgboost, pytorch, tensorflow, huggingface, mxnet, ...

  // Training and tuning jobs.
  Val spot;
  Val max_run_seconds;
  Val max_wait_seconds;
  Val checkpoint;   // checkpoint S3 URI
  Val output_path;  // the job's S3 output path (OutputDataConfig.S3OutputPath, output_path)
  Val keep_alive_seconds;
  Val input_mode;                 // the job-wide default input mode; absent = File
  std::vector<Channel> channels;  // training channels and processing inputs

  // Endpoint variants and transform jobs.
  Val accelerator_type;  // Elastic Inference (also notebook AcceleratorTypes)
  Val serverless;        // "true" for a serverless variant
  Val async_inference;   // "true" for an asynchronous endpoint
  Val managed_scaling;   // ManagedInstanceScaling.Status (ENABLED|DISABLED)
  Val endpoint_name;
  Val variant_name;
  // Inference components: the copies of the model on their variant
  // (`endpoint_name`/`variant_name`) and what each copy reserves there. The
  // variant's instances bill; a component adds no cost of its own.
  Val copy_count;
  Val accelerators_required;  // NumberOfAcceleratorDevicesRequired
  Val memory_required_mb;     // MinMemoryRequiredInMb
  Val cpu_cores_required;     // NumberOfCpuCoresRequired
  // Notebooks: "true" when its workflow deletes the endpoint (a later cell, or
  // another notebook of its directory), "false" when nothing does (`origin`
  // then says why a delete that exists does not count); unknown when a delete
  // cannot be matched to it (SM213). See DeletedByWorkflow().
  Val deleted;
  // Python and notebooks: a statement that deletes this endpoint, in the
  // code's own names ("predictor.delete_endpoint()"); empty where the code
  // gives none (SM213's fix appends it in a clean-up cell).
  std::string delete_statement;
  // Where the endpoint's name is bound again later (a loop's body aside): a
  // line that keeps it reachable for that statement ("endpoint_1 = endpoint"),
  // to insert after the deploy's statement at `delete_capture_at`.
  std::string delete_capture;
  SourceRange delete_capture_at;

  // Scalable targets.
  Val service_namespace;
  Val resource_id;
  Val scalable_dimension;
  Val min_capacity;
  Val max_capacity;

  // Notebook instances.
  Val lifecycle_config;  // the lifecycle configuration name or reference; absent = none

  // Lifecycle scripts (notebook lifecycle configurations).
  Val on_start;   // decoded on-start script text
  Val on_create;  // decoded on-create script text

  // Studio domains, user profiles and spaces.
  std::vector<StudioApp> apps;

  // IAM statements.
  IamStatement iam;

  // Links, resolved by the linker across all files of a scan. `keys` are the
  // identities of this workload ("name:endpoint/foo/variant/AllTraffic",
  // "cfn:infra/x.yaml#MyEndpoint/variant/AllTraffic", "lc:my-config"); `refs`
  // are the identities it points at (a scalable target's variant, a
  // notebook's lifecycle configuration).
  std::vector<std::string> keys;
  std::vector<std::string> refs;

  // Filled by the linker (linter/link.cc), read by rules and policies.
  Val autoscaling;    // endpoint variants: "true"/"false"/unknown
  Val idle_stop;      // notebooks: lifecycle config's on-start stops idle instances
  Val idle_shutdown;  // Studio: idle shutdown enabled for every app
};

// A parse failure: becomes an SM000 finding.
struct ParseError {
  std::string message;
  SourcePos pos;
  int cell = 0;  // notebooks: the cell view of `pos` (see SourceRange)
  int cell_line = 0;
};

// What a front end reports for one file.
struct FileResult {
  std::string path;       // display path
  std::string root_path;  // relative to the scan root, '/' separators
  // Evaluated for context only (a pre-commit scan's unnamed files): its
  // workloads are linked with the others but never reported.
  bool context = false;
  Format format = Format::kCloudFormation;
  std::vector<Workload> workloads;
  std::vector<ParseError> errors;  // each becomes an SM000 finding (duplicate keys too)
  // What was read but not evaluated (a loop over an unknown collection, a
  // definition file that cannot be read): told to the user, not findings.
  std::vector<ParseError> notes;
  // Where a bound (an evaluation budget, an expansion limit) stopped the
  // evaluation of the file before its end: each becomes an SM007 note.
  std::vector<ParseError> bounds;
  // What the file names but could not be read (a module imported with a name
  // known only at run time): each becomes an SM008 warning at that line.
  std::vector<ParseError> unread;
  // Notebooks: the endpoints this notebook deletes for the other notebooks of
  // its workflow (NotebookWorkflow), by name ("my-endpoint", a shared name such
  // as "%store:…"), "*" for every endpoint it lists and deletes, "*NAME" for
  // every listed endpoint whose name contains NAME.
  std::vector<std::string> workflow_deletes;
};

// The workflow a notebook belongs to: the notebooks of its directory (its
// display path's parent). Notebook workloads use it as their linking scope.
std::string NotebookWorkflow(std::string_view path);

// An endpoint variant that its notebook's workflow deletes (`deleted` is
// "true"): ephemeral. It bills by the hour while the notebook runs and never
// counts as always-on monthly spend (docs/cost-data.md); SM213 is silent on it.
// The one test SM213, cost estimates and `diff`'s monthly delta share.
bool DeletedByWorkflow(const Workload& w);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_MODEL_MODEL_H_
