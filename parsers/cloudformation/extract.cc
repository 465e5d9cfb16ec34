// CloudFormation front end: template -> workloads.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "linter/base/paths.h"
#include "parsers/aws/request.h"
#include "parsers/aws/resources.h"
#include "parsers/cloudformation/sub.h"
#include "parsers/cloudformation/template.h"
#include "parsers/common/base64.h"
#include "parsers/common/node.h"
#include "parsers/common/top_keys.h"
#include "parsers/frontend.h"

namespace sagelint {
namespace cfn {
namespace {

constexpr size_t kMaxTemplateBytes = 16u << 20;  // CloudFormation itself takes at most 1 MB
constexpr int kMaxStateDepth = 32;
constexpr size_t kMaxSubstitutedBytes = 4u << 20;  // an embedded document after Fn::Sub

SourceRange RangeOf(SourcePos p) { return {p, p}; }

class Extractor {
 public:
  // `scope`: the linking scope (the file, or the file and its document).
  // `mentions`: the parameters' mentions in the template as written (see Template).
  Extractor(const Node& root, const SourceFile& file, const ResolveOptions& opts, std::string scope,
            std::string label_suffix, FileResult* out, std::vector<std::string>* owners = nullptr,
            const std::map<std::string, int>* mentions = nullptr)
      : owners_(owners),
        t_(root, opts, mentions),
        file_(file),
        opts_(opts),
        scope_(std::move(scope)),
        label_suffix_(std::move(label_suffix)),
        out_(out) {}

  void Run() {
    const Node* resources = t_.root().Get("Resources");
    if (!resources || !resources->is_map()) return;
    for (size_t i = 0; i < resources->entries.size(); ++i) {
      const auto& [id, res] = resources->entries[i];
      if (!res.is_map()) continue;
      const Node* type = res.Get("Type");
      if (!type || !type->is_scalar()) continue;
      Workload base = Base(id, resources->key_pos[i], res);
      size_t before = out_->workloads.size();
      // `Properties: !If [Cond, {...}, {...}]`: each branch, under its condition.
      std::vector<std::pair<const Node*, std::string>> variants;
      Branches(res.Get("Properties"), "", &variants, 0);
      // `cdk synth` wrote this resource: its source is the app, not this file.
      bool synthesized = res.Find({"Metadata", "aws:cdk:path"}) != nullptr;
      for (const auto& [props, cond] : variants) {
        Workload w = base;
        if (!cond.empty()) w.condition = w.condition.empty() ? cond : w.condition + " and " + cond;
        if (variants.size() > 1) {
          w.member_of = {ConstructMember::Kind::kAlternative, id, cond, static_cast<int>(variants.size())};
        }
        if (props && !props->is_map()) w.complete = false;
        // A branch's value is no literal of its own: the resource's other branch may read the same finding.
        t_.set_literals(variants.size() <= 1 && !synthesized);
        Resource(type->text, w, res, props);
        t_.set_literals(true);
      }
      // A template `cdk synth` wrote names the construct each resource comes from.
      std::string suffix = label_suffix_;
      if (const Node* path = res.Find({"Metadata", "aws:cdk:path"}); path && path->is_scalar() && path->tag.empty()) {
        suffix = " (" + path->text + ")" + suffix;
      }
      if (!suffix.empty()) {
        for (size_t k = before; k < out_->workloads.size(); ++k) out_->workloads[k].label += suffix;
      }
      if (owners_) owners_->resize(out_->workloads.size(), id);
    }
  }

 private:
  void Resource(const std::string& ty, const Workload& base, const Node& res, const Node* props) {
    if (const aws::Resource* known = aws::ResourceOfCloudFormation(ty)) {
      SageMakerResource(*known, base, props);
    } else if (ty == "AWS::IAM::Policy" || ty == "AWS::IAM::ManagedPolicy" || ty == "AWS::IAM::Role")
      Iam(base, res, props);
    else if (ty == "AWS::StepFunctions::StateMachine")
      StateMachine(base, props, false);
    else if (ty == "AWS::Serverless::StateMachine") {
      StateMachine(base, props, true);
      SamPolicies(base, props, "state machine");
    } else if (ty == "AWS::Serverless::Function") {
      SamPolicies(base, props, "function");
    } else if (ty == "AWS::SageMaker::Pipeline") {
      Pipeline(base, props);
    }
  }

  // A resource of the table in parsers/aws/resources.cc.
  void SageMakerResource(const aws::Resource& r, Workload w, const Node* props) {
    w.kind = r.kind;
    w.label = std::string(r.label) + " '" + w.name + "'";
    switch (r.type) {
      case aws::ResourceType::kNotebookInstance:
        return Notebook(r, std::move(w), props);
      case aws::ResourceType::kLifecycleConfig:
        return LifecycleConfig(r, std::move(w), props);
      case aws::ResourceType::kEndpointConfig:
        return EndpointConfig(r, std::move(w), props);
      case aws::ResourceType::kStudioDomain:
      case aws::ResourceType::kStudioUserProfile:
      case aws::ResourceType::kStudioSpace:
        return Studio(std::move(w), props);
      case aws::ResourceType::kScalableTarget:
        return ScalableTarget(r, std::move(w), props);
      case aws::ResourceType::kHyperPodCluster:
        return aws::MapCluster(props, TemplateValues(), std::move(w), &out_->workloads);
      case aws::ResourceType::kStudioApp:
        return aws::MapStudioApp(props, TemplateValues(), std::move(w), &out_->workloads);
      case aws::ResourceType::kInferenceComponent: {
        // The endpoint resource of this template it names (Ref, GetAtt).
        std::string endpoint_key;
        auto target = props && props->is_map() ? t_.RefTarget(props->Get("EndpointName")) : std::nullopt;
        if (target && t_.ResourceType(*target) == "AWS::SageMaker::Endpoint") endpoint_key = Ref(*target);
        return aws::MapInferenceComponent(props, TemplateValues(), endpoint_key, std::move(w), &out_->workloads);
      }
      case aws::ResourceType::kTrainingJob:
      case aws::ResourceType::kTuningJob:
      case aws::ResourceType::kProcessingJob:
      case aws::ResourceType::kTransformJob:
        if (props) aws::MapRequest(r.request, *props, TemplateValues(), w, &out_->workloads);
        return;
    }
  }

  // The property maps of a resource: one, or one per branch of `Fn::If`
  // (an `AWS::NoValue` branch has none) with the condition that selects it.
  void Branches(const Node* props, const std::string& cond, std::vector<std::pair<const Node*, std::string>>* out,
                int depth) {
    const Node* args = nullptr;
    if (props && depth < 8 && IntrinsicName(*props, &args) == "Fn::If" && args->is_seq() && args->items.size() == 3 &&
        args->items[0].is_scalar()) {
      const std::string& name = args->items[0].text;
      for (size_t i = 1; i <= 2; ++i) {
        std::string c = "condition " + name + (i == 1 ? " is true" : " is false");
        const Node* branch = &args->items[i];
        const Node* ref = nullptr;
        // No properties at all: not a resource SageMaker would create, so nothing to check.
        if (IntrinsicName(*branch, &ref) == "Ref" && ref->is_scalar() && ref->text == "AWS::NoValue") continue;
        Branches(branch, cond.empty() ? c : cond + " and " + c, out, depth + 1);
      }
      return;
    }
    out->emplace_back(props, cond);
  }

  Workload Base(const std::string& id, SourcePos pos, const Node& res) {
    Workload w;
    w.format = Format::kCloudFormation;
    w.path = file_.path;
    w.scope = scope_;
    w.name = id;
    w.range = RangeOf(pos);
    if (const Node* cond = res.Get("Condition"); cond && cond->is_scalar()) {
      w.condition = "condition " + cond->text + " is true";
    }
    if (const Node* ignore = res.Find({"Metadata", "sagelint", "ignore"})) {
      if (ignore->is_scalar()) w.suppressed.push_back(ignore->text);
      for (const Node& id_node : ignore->items) {
        if (id_node.is_scalar()) w.suppressed.push_back(id_node.text);
      }
    }
    return w;
  }

  Val Prop(const Node* props, std::string_view key) { return props ? t_.Resolve(props->Get(key)) : Val::Absent(); }

  std::string Ref(const std::string& id) const { return aws::ResourceKey(scope_, id); }

  void Emit(Workload w) { out_->workloads.push_back(std::move(w)); }

  void Notebook(const aws::Resource& r, Workload w, const Node* props) {
    for (const aws::Field& f : r.fields) w.*f.member = Prop(props, f.property);
    for (const aws::Field& f : r.list_heads) {
      const Node* list = props ? props->Get(f.property) : nullptr;
      if (list && list->is_seq() && !list->items.empty()) {
        w.*f.member = t_.Resolve(&list->items[0]);
      } else if (list) {
        w.*f.member = t_.Resolve(list);
      }
    }
    const Node* lc = props ? props->Get("LifecycleConfigName") : nullptr;
    aws::AddLifecycleConfigRefs(&w);
    // References to a lifecycle configuration of this template, in any branch.
    if (lc)
      LinkRefs(
          *lc, [&](const std::string& id) { w.refs.push_back(Ref(id)); }, 0);
    Emit(std::move(w));
  }

  // Calls `fn` with every resource a (possibly conditional) value refers to.
  void LinkRefs(const Node& n, const std::function<void(const std::string&)>& fn, int depth) {
    if (depth > 16) return;
    const Node* args = nullptr;
    if (IntrinsicName(n, &args) == "Fn::If") {
      for (size_t i = 1; args->is_seq() && i < args->items.size(); ++i) LinkRefs(args->items[i], fn, depth + 1);
      return;
    }
    if (auto target = t_.RefTarget(&n)) fn(*target);
  }

  void LifecycleConfig(const aws::Resource& r, Workload w, const Node* props) {
    w.keys.push_back(Ref(w.name));
    Val name = Prop(props, r.name_property);
    if (name.known()) w.keys.push_back(aws::LifecycleConfigKey(name.text));
    for (const aws::Field& f : r.scripts) w.*f.member = Script(props ? props->Get(f.property) : nullptr);
    Emit(std::move(w));
  }

  // The script text of OnStart/OnCreate: `[{Content: !Base64 "..."}]`, or a
  // literal base64 string.
  Val Script(const Node* hooks) {
    if (!hooks) return Val::Absent();
    if (!hooks->is_seq()) return Val::Unknown(RangeOf(hooks->pos));
    std::string text;
    SourceRange range = RangeOf(hooks->pos);
    for (const Node& hook : hooks->items) {
      const Node* content = hook.Get("Content");
      if (!content) continue;
      const Node* args = nullptr;
      bool wrapped = IntrinsicName(*content, &args) == "Fn::Base64";
      if (wrapped) {
        auto script = t_.ScriptText(content);
        if (!script) return Val::Unknown(RangeOf(content->pos), "script not resolvable");
        text += *script;
        continue;
      }
      Val v = t_.Resolve(content);
      if (!v.known()) return Val::Unknown(RangeOf(content->pos), "script not resolvable");
      bool ok = false;
      std::string decoded = Base64Decode(v.text, &ok);
      if (!ok) return Val::Unknown(RangeOf(content->pos), "content is not base64");
      text += decoded;
    }
    return Val::Known(text, range, "decoded script");
  }

  void EndpointConfig(const aws::Resource& r, Workload base, const Node* props) {
    std::vector<const Node*> variants;
    for (const aws::ListProperty& key : r.variants) {
      if (!(key.read_by & aws::kReadByCloudFormation)) continue;
      const Node* list = props ? props->Get(key.property) : nullptr;
      if (!list || !list->is_seq()) continue;  // absent, or a computed list: nothing we can see
      for (const Node& v : list->items) variants.push_back(&v);
    }
    if (variants.empty()) return;
    // The endpoints of this template that deploy this config.
    std::vector<aws::Deployer> deployers;
    Val config_name = Prop(props, r.name_property);
    const Node* resources = t_.root().Get("Resources");
    for (const auto& [id, res] : resources->entries) {
      if (t_.ResourceType(id) != "AWS::SageMaker::Endpoint") continue;
      const Node* cfg = res.Find({"Properties", "EndpointConfigName"});
      if (!cfg) continue;
      auto target = t_.RefTarget(cfg);
      Val literal = t_.Resolve(cfg);
      bool uses = (target && *target == base.name) ||
                  (literal.known() && config_name.known() && literal.text == config_name.text);
      if (uses) {
        Val name = t_.Resolve(res.Find({"Properties", "EndpointName"}));
        name.literal = {};  // the endpoint's, read by every variant
        deployers.push_back({Ref(id), std::move(name)});
      }
    }
    bool async = props->Get("AsyncInferenceConfig") != nullptr;
    Val image, framework;
    for (const Node* vp : variants) {
      const Node& v = *vp;
      Workload w = base;
      w.range = RangeOf(v.pos);
      for (const aws::Field& f : r.fields) w.*f.member = t_.Resolve(v.Get(f.property));
      std::string vname = w.variant_name.known() ? w.variant_name.text : "?";
      w.name = base.name + "/" + vname;
      w.label = std::string(r.label) + " '" + w.name + "'";
      if (const Node* sc = v.Get("ServerlessConfig")) w.serverless = Val::Known("true", RangeOf(sc->pos));
      if (async) w.async_inference = Val::Known("true", RangeOf(props->Get("AsyncInferenceConfig")->pos));
      if (const Node* mis = v.Get("ManagedInstanceScaling")) w.managed_scaling = t_.Resolve(mis->Get("Status"));
      ModelImage(v.Get("ModelName"), &w);
      if (w.variant_name.known()) aws::AddVariantKeys(deployers, vname, &w);
      Emit(std::move(w));
    }
  }

  // The container image of the model a variant serves, when the model is in this template.
  void ModelImage(const Node* model_name, Workload* w) {
    if (!model_name) return;
    auto target = t_.RefTarget(model_name);
    const Node* model = target ? t_.Resource(*target) : nullptr;
    if (!model) {
      // A literal name of a model defined here.
      Val name = t_.Resolve(model_name);
      const Node* resources = t_.root().Get("Resources");
      for (const auto& [id, res] : resources->entries) {
        if (name.known() && t_.ResourceType(id) == "AWS::SageMaker::Model" &&
            t_.Resolve(res.Find({"Properties", "ModelName"})).text == name.text) {
          model = &res;
        }
      }
    }
    if (!model) return;
    const Node* props = model->Get("Properties");
    if (!props) return;
    if (const Node* primary = props->Get("PrimaryContainer")) {
      w->image = t_.Resolve(primary->Get("Image"));
    } else if (const Node* containers = props->Get("Containers"); containers && containers->is_seq()) {
      // An inference pipeline: the first container that names a known framework decides.
      for (const Node& c : containers->items) {
        aws::ChooseServedImage(t_.Resolve(c.Get("Image")), &w->image);
      }
    }
    w->image.literal = {};  // the model's, which other variants may serve
  }

  void Studio(Workload w, const Node* props) {
    for (std::string_view scope : aws::StudioSettings(w.kind)) {
      const Node* settings = props ? props->Get(scope) : nullptr;
      if (!settings) continue;
      if (!settings->is_map()) {
        w.complete = false;
        continue;
      }
      for (std::string_view app : aws::StudioApps()) {
        const Node* s = settings->Get(std::string(app) + "AppSettings");
        if (!s) continue;
        if (!s->is_map()) {
          w.complete = false;
          continue;
        }
        StudioApp a;
        a.app = std::string(app);
        a.scope = std::string(scope);
        a.range = RangeOf(settings->KeyPos(std::string(app) + "AppSettings"));
        a.instance_type = t_.Resolve(s->Find({"DefaultResourceSpec", "InstanceType"}));
        const Node* idle = s->Find({"AppLifecycleManagement", "IdleSettings"});
        if (idle && !idle->is_map()) {
          a.idle_management = Val::Unknown(RangeOf(idle->pos));
          a.idle_timeout_minutes = Val::Unknown(RangeOf(idle->pos));
        } else if (idle) {
          a.idle_management = t_.Resolve(idle->Get("LifecycleManagement"));
          a.idle_timeout_minutes = t_.Resolve(idle->Get("IdleTimeoutInMinutes"));
        }
        w.apps.push_back(std::move(a));
      }
    }
    Emit(std::move(w));
  }

  aws::ValueFn TemplateValues() {
    return [this](const Node* n) { return t_.Resolve(n); };
  }

  void ScalableTarget(const aws::Resource& r, Workload w, const Node* props) {
    for (const aws::Field& f : r.fields) w.*f.member = Prop(props, f.property);
    // endpoint/<name or \x01Id\x01>/variant/<variant>
    auto text = t_.LinkText(props ? props->Get("ResourceId") : nullptr);
    if (auto parts = text ? aws::SplitVariantResourceId(*text) : std::nullopt) {
      const auto& [endpoint, variant] = *parts;
      if (endpoint.size() > 2 && endpoint.front() == kRefMark && endpoint.back() == kRefMark) {
        w.refs.push_back(aws::VariantKey(Ref(endpoint.substr(1, endpoint.size() - 2)), variant));
      } else if (endpoint.find(kRefMark) == std::string::npos) {
        w.refs.push_back(aws::VariantKey(aws::EndpointKey(endpoint), variant));
      }
    }
    Emit(std::move(w));
  }

  // The services that alone can assume a role of this template (its logical ID); empty when unknown.
  std::vector<std::string> RoleTrust(std::string_view role) {
    const Node* res = t_.Resource(role);
    if (!res || t_.ResourceType(role) != "AWS::IAM::Role") return {};
    const Node* props = res->Get("Properties");
    const Node* trust = props && props->is_map() ? props->Get("AssumeRolePolicyDocument") : nullptr;
    return trust ? aws::TrustedServices(*trust, TemplateValues()) : std::vector<std::string>{};
  }

  // The services that alone can use a policy: a role's own trust, or that of
  // every role a policy names in `Roles` (with no user or group).
  std::vector<std::string> HolderTrust(const Workload& base, std::string_view type, const Node* props) {
    if (type == "AWS::IAM::Role") return RoleTrust(base.name);
    if (props->Get("Users") || props->Get("Groups")) return {};
    const Node* roles = props->Get("Roles");
    if (!roles || !roles->is_seq() || roles->items.empty()) return {};
    std::vector<std::string> services;
    for (const Node& r : roles->items) {
      std::optional<std::string> target = t_.RefTarget(&r);
      std::vector<std::string> trust = target ? RoleTrust(*target) : std::vector<std::string>{};
      if (trust.empty()) return {};
      services.insert(services.end(), trust.begin(), trust.end());
    }
    std::sort(services.begin(), services.end());
    services.erase(std::unique(services.begin(), services.end()), services.end());
    return services;
  }

  void Iam(const Workload& holder, const Node& res, const Node* props) {
    if (!props) return;
    const Node* type = res.Get("Type");
    Workload base = holder;
    base.iam.trusted_services = HolderTrust(holder, type->text, props);
    auto policy_doc = [&](const Node* doc, const std::string& policy) {
      if (doc) aws::MapPolicyDocument(*doc, TemplateValues(), base, policy, &out_->workloads);
    };
    if (type->text == "AWS::IAM::Role") {
      if (const Node* policies = props->Get("Policies"); policies && policies->is_seq()) {
        for (const Node& p : policies->items) {
          Val name = t_.Resolve(p.Get("PolicyName"));
          policy_doc(p.Get("PolicyDocument"), base.name + "/" + (name.known() ? name.text : "?"));
        }
      }
      ManagedArns(base, props->Get("ManagedPolicyArns"));
    } else {
      Val name = Prop(props, type->text == "AWS::IAM::Policy" ? "PolicyName" : "ManagedPolicyName");
      policy_doc(props->Get("PolicyDocument"), name.known() ? name.text : base.name);
    }
  }

  // AmazonSageMakerFullAccess attached by ARN allows every SageMaker action unconditionally.
  void ManagedArns(const Workload& base, const Node* arns) {
    if (!arns || !arns->is_seq()) return;
    for (const Node& a : arns->items) {
      if (!aws::IsSageMakerFullAccessArn(t_.PartialText(&a).value_or(""))) continue;
      Emit(aws::SageMakerFullAccess(base, RangeOf(a.pos), "IAM role '" + base.name + "'", base.name));
    }
  }

  // Step Functions: the SageMaker tasks of `Definition`, of `DefinitionString`
  // JSON, or (SAM) of the local file `DefinitionUri` names, with its
  // `DefinitionSubstitutions` filled in.
  void StateMachine(const Workload& base, const Node* props, bool sam) {
    if (!props || !props->is_map()) return;
    if (const Node* def = props->Get("Definition"); def && def->is_map()) {
      aws::MapStateMachine(*def, TemplateValues(), base, &out_->workloads);
      return;
    }
    if (sam) {
      const Node* uri = props->Get("DefinitionUri");
      if (!uri || !uri->is_scalar() || !uri->tag.empty()) return;  // an S3 location or a computed path
      std::string text, shown;
      if (uri->text.rfind("s3://", 0) == 0) return;
      if (!ReadLocalFile(uri->text, &text, &shown)) {
        out_->notes.push_back(
            {"DefinitionUri " + uri->text + " is not a readable file inside the scan root: its tasks are not checked",
             uri->pos});
        return;
      }
      if (const Node* subs = props->Get("DefinitionSubstitutions"); subs && subs->is_map()) {
        for (const auto& [k, v] : subs->entries) {
          Val value = t_.Resolve(&v);
          std::string with = value.known() ? value.text : std::string(aws::kUnknownMarker);
          std::string key = "${" + k + "}";
          for (size_t p = text.find(key); p != std::string::npos; p = text.find(key, p + with.size())) {
            text.replace(p, key.size(), with);
          }
        }
      }
      Node doc;
      std::vector<LoadError> errors;
      if (!LoadDocument(text, 0, LoadLimits{}, &doc, &errors) || !doc.is_map()) {
        out_->notes.push_back(
            {"DefinitionUri " + uri->text + " is not a state machine definition sagelint can read", uri->pos});
        return;
      }
      // Positions inside the definition file mean nothing in the template: point at DefinitionUri.
      Place(&doc, uri->pos, 0);
      Workload b = base;
      size_t before = out_->workloads.size();
      aws::MapStateMachine(doc, PlainValues(), b, &out_->workloads);
      for (size_t i = before; i < out_->workloads.size(); ++i) {
        out_->workloads[i].label += " (definition " + uri->text + ")";
      }
      return;
    }
    const Node* str = props->Get("DefinitionString");
    if (!str) return;
    Node doc;
    if (EmbeddedJson(*str, &doc)) aws::MapStateMachine(doc, PlainValues(), base, &out_->workloads);
  }

  static void Place(Node* n, SourcePos pos, int depth) {
    n->pos = pos;
    if (depth > 64) return;
    for (SourcePos& k : n->key_pos) k = pos;
    for (Node& i : n->items) Place(&i, pos, depth + 1);
    for (auto& e : n->entries) Place(&e.second, pos, depth + 1);
  }

  // A file named relative to the template's directory, read only inside the scan root.
  bool ReadLocalFile(const std::string& name, std::string* text, std::string* shown) {
    namespace fs = std::filesystem;
    if (file_.abs_path.empty() || name.rfind("s3://", 0) == 0) return false;
    const FileSource& files = *opts_.files;
    fs::path p = fs::path(name).is_absolute() ? fs::path(name) : fs::path(file_.abs_path).parent_path() / name;
    auto canonical = files.WeaklyCanonical(p.string());
    if (!canonical) return false;
    fs::path c = *canonical;
    if (!opts_.root.empty()) {
      auto rel = PathBelow(c.string(), files.WeaklyCanonical(opts_.root).value_or(""));
      if (!rel) return false;
      *shown = *rel;
    } else {
      *shown = name;
    }
    std::string error;
    return files.Read(c.string(), 4u << 20, text, &error);
  }

  // SAM `Policies`: AWS managed policy names or ARNs, and inline policy
  // documents (policy templates such as S3ReadPolicy grant no SageMaker action).
  void SamPolicies(const Workload& holder, const Node* props, const std::string& what) {
    const Node* policies = props && props->is_map() ? props->Get("Policies") : nullptr;
    if (!policies) return;
    // SAM makes the function's (state machine's) role, which only Lambda (Step Functions) assumes.
    Workload base = holder;
    base.iam.trusted_services = {what == "function" ? "lambda.amazonaws.com" : "states.amazonaws.com"};
    std::vector<const Node*> items;
    if (policies->is_seq()) {
      for (const Node& p : policies->items) items.push_back(&p);
    } else {
      items.push_back(policies);
    }
    for (size_t i = 0; i < items.size(); ++i) {
      const Node& p = *items[i];
      if (p.is_map() && p.Get("Statement")) {
        aws::MapPolicyDocument(p, TemplateValues(), base, base.name + "/Policies[" + std::to_string(i) + "]",
                               &out_->workloads);
        continue;
      }
      std::string text = t_.PartialText(&p).value_or("");
      if (text == "AmazonSageMakerFullAccess" || aws::IsSageMakerFullAccessArn(text)) {
        Emit(aws::SageMakerFullAccess(base, RangeOf(p.pos), what + " '" + base.name + "'", base.name));
      }
    }
  }

  // JSON text held in a template string (plain, !Sub or Fn::Join), parsed with
  // positions that point into this file where the text is a block scalar.
  bool EmbeddedJson(const Node& str, Node* doc) {
    std::string text;
    const Node* args = nullptr;
    std::string fn = IntrinsicName(str, &args);
    int line_offset = str.pos.line;  // block scalar content starts on the next line
    if (fn.empty() && str.is_scalar()) {
      text = str.text;
      if (str.quoted) line_offset = str.pos.line - 1;
    } else if (fn == "Fn::Sub") {
      text = SubstituteForJson(*args);
      const Node* tmpl = args->is_seq() && !args->items.empty() ? &args->items[0] : args;
      line_offset = tmpl->pos.line;
    } else {
      // Fn::Join (CDK writes every JSON body holding a token as one): the
      // unknown parts as the marker, read only where they stand for values.
      auto partial = t_.PartialText(&str);
      if (!partial || UnknownOutsideValues(*partial)) return false;
      text = std::move(*partial);
    }
    std::vector<LoadError> errors;
    if (LoadDocument(text, line_offset, LoadLimits{}, doc, &errors)) return doc->is_map();
    for (const LoadError& e : errors) out_->errors.push_back({"in embedded JSON: " + e.message, e.pos});
    return false;
  }

  // Whether an unknown part of JSON text stands where it could add or replace
  // members (the Spot setting of a training job): in a member's name, or
  // outside a string other than as a whole value (CDK writes a number token
  // bare: `"InstanceCount":<token>,`). Such a document is not read at all.
  static bool UnknownOutsideValues(std::string_view json) {
    const std::string_view marker = aws::kUnknownMarker;
    constexpr std::string_view kBlank = " \t\r\n";
    std::vector<char> open;  // the containers around: '{' or '['
    bool name_next = false;  // in an object, where a member's name stands
    for (size_t i = 0; i < json.size();) {
      char c = json[i];
      if (c == '"') {
        bool unknown = false;
        size_t j = i + 1;
        for (; j < json.size() && json[j] != '"'; ++j) {
          if (json[j] == '\\') {
            ++j;
          } else if (json.substr(j, marker.size()) == marker) {
            unknown = true;
          }
        }
        if (unknown && name_next) return true;
        i = j + 1;
        continue;
      }
      if (json.substr(i, marker.size()) == marker) {
        size_t before = i == 0 ? std::string_view::npos : json.find_last_not_of(kBlank, i - 1);
        size_t after = json.find_first_not_of(kBlank, i + marker.size());
        bool whole_value = !name_next && !open.empty() && before != std::string_view::npos &&
                           std::string_view(":[,").find(json[before]) != std::string_view::npos &&
                           after != std::string_view::npos &&
                           std::string_view(",}]").find(json[after]) != std::string_view::npos;
        if (!whole_value) return true;
        i += marker.size();
        continue;
      }
      if (c == '{' || c == '[') {
        open.push_back(c);
        name_next = c == '{';
      } else if (c == '}' || c == ']') {
        if (!open.empty()) open.pop_back();
        name_next = false;
      } else if (c == ':') {
        name_next = false;
      } else if (c == ',') {
        name_next = !open.empty() && open.back() == '{';
      }
      ++i;
    }
    return false;
  }

  // A Fn::Sub template with known variables substituted and unknown ones
  // replaced by a marker that the value function reads as unknown.
  std::string SubstituteForJson(const Node& args) {
    const Node* tmpl = args.is_seq() && !args.items.empty() ? &args.items[0] : &args;
    if (!tmpl->is_scalar()) return {};
    const Node* vars = args.is_seq() && args.items.size() > 1 ? &args.items[1] : nullptr;
    std::string out;
    bool too_long = false;
    WalkSub(
        tmpl->text, [&](std::string_view text) { out += text; },
        [&](std::string_view name) {
          std::string var(name);
          // A variable given in the Sub's map is resolved where it stands (never
          // copied: a template may name it thousands of times); any other as `!Sub ${X}`.
          Val v;
          if (const Node* given = vars && vars->is_map() ? vars->Get(var) : nullptr) {
            v = t_.Resolve(given);
          } else {
            Node ref;
            ref.kind = Node::Kind::kScalar;
            ref.tag = "!Sub";
            ref.text = "${" + var + "}";
            v = t_.Resolve(&ref);
          }
          out += v.known() ? v.text : std::string(aws::kUnknownMarker);
          // Past the bound the text is not a definition anyone deploys: leave it unread.
          too_long = out.size() > kMaxSubstitutedBytes;
          return !too_long;
        });
    if (too_long) return {};
    return out;
  }

  static aws::ValueFn PlainValues() { return aws::PlainValue; }

  // SageMaker Pipelines: the steps of PipelineDefinitionBody — JSON text, or an
  // object under Fn::ToJsonString (AWS::LanguageExtensions).
  void Pipeline(const Workload& base, const Node* props) {
    const Node* body = props ? props->Find({"PipelineDefinition", "PipelineDefinitionBody"}) : nullptr;
    if (!body) return;
    Node parsed;
    const Node* doc = nullptr;
    aws::ValueFn inner;
    const Node* args = nullptr;
    if (IntrinsicName(*body, &args) == "Fn::ToJsonString" && args->is_map()) {
      doc = args;
      inner = TemplateValues();
    } else if (EmbeddedJson(*body, &parsed)) {
      doc = &parsed;
      inner = PlainValues();
    } else {
      return;
    }
    std::map<std::string, Val> defaults;
    if (const Node* params = doc->Get("Parameters"); params && params->is_seq()) {
      for (const Node& p : params->items) {
        const Node* name = p.Get("Name");
        if (!name || !name->is_scalar()) continue;
        Val def = inner(p.Get("DefaultValue"));
        if (def.known()) def.origin = "pipeline parameter " + name->text + " default";
        def.literal = {};  // every step may read a pipeline parameter
        defaults[name->text] = def;
      }
    }
    aws::ValueFn value = [&defaults, inner](const Node* n) -> Val {
      if (n && n->is_map()) {
        const Node* get = n->Get("Get");
        if (get && get->is_scalar() && get->text.rfind("Parameters.", 0) == 0) {
          auto it = defaults.find(get->text.substr(11));
          if (it != defaults.end() && it->second.known()) {
            Val v = it->second;
            v.range = RangeOf(n->pos);
            return v;
          }
          return Val::Unknown(RangeOf(n->pos), "pipeline parameter without a known default");
        }
      }
      return inner(n);
    };
    PipelineSteps(base, doc->Get("Steps"), value, 0);
  }

  // Steps, including those inside Condition steps (IfSteps / ElseSteps).
  void PipelineSteps(const Workload& base, const Node* steps, const aws::ValueFn& value, int depth) {
    if (!steps || !steps->is_seq() || depth > kMaxStateDepth) return;
    for (const Node& step : steps->items) {
      const Node* type = step.Get("Type");
      const Node* args = step.Get("Arguments");
      const Node* name = step.Get("Name");
      if (!type || !type->is_scalar() || !args || !args->is_map()) continue;
      if (type->text == "Condition") {
        PipelineSteps(base, args->Get("IfSteps"), value, depth + 1);
        PipelineSteps(base, args->Get("ElseSteps"), value, depth + 1);
        continue;
      }
      aws::RequestKind kind = aws::RequestKindOfPipelineStep(type->text);
      if (kind == aws::RequestKind::kNone) continue;
      Workload w = base;
      w.name = base.name + "." + (name && name->is_scalar() ? name->text : "?");
      w.range = RangeOf(step.pos);
      w.label = std::string(aws::RequestKindLabel(kind)) + " '" + w.name + "'";
      aws::MapRequest(kind, *args, value, w, &out_->workloads);
    }
  }

  std::vector<std::string>* owners_;  // the logical ID of each workload's resource, when asked
  Template t_;
  const SourceFile& file_;
  const ResolveOptions& opts_;
  std::string scope_;
  std::string label_suffix_;
  FileResult* out_;
};

// ---- Fn::ForEach (AWS::LanguageExtensions) ----------------------------------

// What expanding a template's loops may cost. CloudFormation itself stops at
// 500 resources per template; the nodes copied bound the work when loops
// produce few resources (the same logical ID again and again).
struct LoopBudget {
  static constexpr size_t kMaxResources = 500;
  static constexpr size_t kMaxNodes = 2'000'000;
  size_t nodes = 0;
  std::optional<ParseError> exceeded;
};

void MarkShared(Node* n, int depth) {
  n->shared = true;
  if (depth > 400) return;  // deeper than any document loads
  for (Node& i : n->items) MarkShared(&i, depth + 1);
  for (auto& e : n->entries) MarkShared(&e.second, depth + 1);
}

// `node` with the loop identifier replaced by `value`: ${Id} and &{Id} in
// texts and keys, and `Ref: Id`. Stops copying once the budget is spent.
Node Substitute(const Node& node, const std::string& id, const std::string& value, int depth, LoopBudget* budget) {
  ++budget->nodes;
  auto text = [&](std::string s) {
    std::string alnum;
    for (char c : value) {
      if (std::isalnum(static_cast<unsigned char>(c))) alnum += c;
    }
    for (const auto& [from, to] : {std::pair{"${" + id + "}", value}, std::pair{"&{" + id + "}", alnum}}) {
      for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
        s.replace(p, from.size(), to);
    }
    return s;
  };
  const Node* args = nullptr;
  if (IntrinsicName(node, &args) == "Ref" && args->is_scalar() && args->text == id) {
    Node v;
    v.kind = Node::Kind::kScalar;
    v.text = value;
    v.pos = node.pos;
    return v;
  }
  Node out;
  out.kind = node.kind;
  out.tag = node.tag;
  out.quoted = node.quoted;
  out.shared = true;
  out.pos = node.pos;
  out.key_pos = node.key_pos;
  if (depth > 64 || budget->nodes > LoopBudget::kMaxNodes) {
    Node copy = node;  // one copy per value of the loop
    MarkShared(&copy, depth);
    return copy;
  }
  if (out.is_scalar()) out.text = text(node.text);
  out.entries.reserve(node.entries.size());
  for (const auto& [k, v] : node.entries)
    out.entries.emplace_back(text(k), Substitute(v, id, value, depth + 1, budget));
  out.items.reserve(node.items.size());
  for (const Node& i : node.items) out.items.push_back(Substitute(i, id, value, depth + 1, budget));
  return out;
}

// The values a loop runs over: a literal list, or a parameter's (comma-delimited) value.
std::optional<std::vector<std::string>> LoopValues(const Node& collection, const Template& t) {
  std::vector<std::string> out;
  if (collection.is_seq() && collection.tag.empty()) {
    for (const Node& i : collection.items) {
      Val v = t.Resolve(&i);
      if (!v.known()) return std::nullopt;
      out.push_back(v.text);
    }
    return out;
  }
  const Node* args = nullptr;
  if (IntrinsicName(collection, &args) == "Ref") {
    Val v = t.Resolve(&collection);
    if (!v.known()) return std::nullopt;
    size_t start = 0;
    while (start <= v.text.size()) {
      size_t comma = v.text.find(',', start);
      std::string item = v.text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      size_t a = item.find_first_not_of(' '), b = item.find_last_not_of(' ');
      out.push_back(a == std::string::npos ? "" : item.substr(a, b - a + 1));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return out;
  }
  return std::nullopt;
}

// The resources of a template section with every `Fn::ForEach::Name` loop
// expanded; a loop over an unknown collection is left out, with a note.
// `names`: the logical IDs in `out` (a later duplicate is dropped, as before).
// Stops, with `budget->exceeded` set, past CloudFormation's 500 resources.
void ExpandLoops(const Node& resources, const Template& t, Node* out, std::set<std::string>* names,
                 std::vector<ParseError>* notes, int depth, LoopBudget* budget) {
  if (depth == 0) {
    out->kind = Node::Kind::kMap;
    out->pos = resources.pos;
  }
  auto add = [&](const std::string& key, const Node& value, SourcePos pos) {
    if (!names->insert(key).second) return;
    if (names->size() > LoopBudget::kMaxResources) {
      budget->exceeded =
          ParseError{"Fn::ForEach expands the template to more than " + std::to_string(LoopBudget::kMaxResources) +
                         " resources, CloudFormation's limit for one template; it is not checked",
                     pos};
      return;
    }
    out->entries.emplace_back(key, value);
    out->key_pos.push_back(pos);
  };
  for (size_t i = 0; i < resources.entries.size() && !budget->exceeded; ++i) {
    const auto& [key, value] = resources.entries[i];
    SourcePos pos = resources.key_pos[i];
    if (key.rfind("Fn::ForEach::", 0) != 0) {
      add(key, value, pos);
      continue;
    }
    std::optional<std::vector<std::string>> values;
    bool shape = value.is_seq() && value.items.size() == 3 && value.items[0].is_scalar() && value.items[2].is_map();
    if (shape && depth < 8) values = LoopValues(value.items[1], t);
    if (!values) {
      notes->push_back(
          {key + " is not expanded (" +
               std::string(shape ? "its collection is not a list sagelint can resolve" : "not a loop sagelint reads") +
               "): the resources it declares are not checked",
           pos});
      continue;
    }
    for (const std::string& v : *values) {
      if (budget->exceeded) break;
      Node body = Substitute(value.items[2], value.items[0].text, v, 0, budget);
      if (budget->nodes > LoopBudget::kMaxNodes) {
        budget->exceeded = ParseError{"Fn::ForEach expands to more than " + std::to_string(LoopBudget::kMaxNodes) +
                                          " nodes; the template is not checked",
                                      pos};
        break;
      }
      // The loop's own resources are expanded into `out` directly: a logical
      // ID is looked up once, in `names`.
      ExpandLoops(body, t, out, names, notes, depth + 1, budget);
    }
  }
}

}  // namespace

void ExtractTemplate(const Node& root, const SourceFile& file, const ResolveOptions& opts, const std::string& scope,
                     FileResult* out, std::vector<std::string>* owners) {
  Extractor(root, file, opts, scope, "", out, owners).Run();
}

}  // namespace cfn

bool LooksLikeCloudFormation(std::string_view text) {
  // Templates without the version key: a Resources section with AWS:: types.
  bool typed_resources = text.find("AWS::") != std::string_view::npos && text.find("Type") != std::string_view::npos;
  // Neither sign anywhere in the text: no key can change the answer.
  if (!typed_resources && text.find("AWSTemplateFormatVersion") == std::string_view::npos) return false;
  // The top-level keys decide where one pass can read them, so a large JSON
  // document that only mentions these words (an API model) is never built.
  if (auto keys = TopLevelKeys(text)) {
    bool resources = false;
    for (const std::string& k : *keys) {
      if (k == "AWSTemplateFormatVersion") return true;
      resources = resources || k == "Resources";
    }
    return resources && typed_resources;
  }
  if (text.find("AWSTemplateFormatVersion") != std::string_view::npos) return true;
  return text.find("Resources") != std::string_view::npos && typed_resources;
}

FileResult ParseCloudFormation(const SourceFile& file, const ResolveOptions& opts) {
  FileResult result;
  result.path = file.path;
  result.root_path = file.root_path;
  result.format = Format::kCloudFormation;
  std::string_view text = file.text;
  if (text.size() > cfn::kMaxTemplateBytes) {
    result.errors.push_back({"template larger than 16 MiB; not parsed", {1, 1}});
    return result;
  }
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  if (text.find('\0') != std::string_view::npos) {
    result.errors.push_back({"file contains NUL bytes; not a text template", {1, 1}});
    return result;
  }
  std::vector<cfn::Node> docs;
  std::vector<cfn::LoadError> errors;
  bool loaded = cfn::LoadDocuments(text, cfn::LoadLimits{}, &docs, &errors);
  for (const cfn::LoadError& e : errors) result.errors.push_back({e.message, e.pos});
  if (!loaded) return result;
  // Every document of a multi-document file is a template of its own.
  size_t templates = std::count_if(docs.begin(), docs.end(), [](const cfn::Node& d) { return d.is_map(); });
  if (templates == 0) {
    SourcePos pos = docs.empty() ? SourcePos{1, 1} : docs.front().pos;
    if (docs.size() == 1 && !docs.front().is_null()) result.errors.push_back({"a template must be a mapping", pos});
    return result;
  }
  for (size_t d = 0; d < docs.size(); ++d) {
    cfn::Node& root = docs[d];
    if (!root.is_map()) continue;
    // Counted in the template as written, before its loops are expanded.
    std::map<std::string, int> mentions = cfn::CountParameterMentions(root);
    std::string scope = file.path, suffix;
    if (docs.size() > 1) {
      scope += "#document" + std::to_string(d + 1);
      suffix = " (document " + std::to_string(d + 1) + ")";
    }
    // Fn::ForEach loops become the resources they declare.
    if (const cfn::Node* resources = root.Get("Resources"); resources && resources->is_map()) {
      bool loops = std::any_of(resources->entries.begin(), resources->entries.end(),
                               [](const auto& e) { return e.first.rfind("Fn::ForEach::", 0) == 0; });
      if (loops) {
        cfn::Template t(root, opts, &mentions);
        cfn::Node expanded;
        std::set<std::string> names;
        cfn::LoopBudget budget;
        cfn::ExpandLoops(*resources, t, &expanded, &names, &result.notes, 0, &budget);
        if (budget.exceeded) {
          result.errors.push_back(*budget.exceeded);
          continue;
        }
        for (auto& e : root.entries) {
          if (e.first != "Resources") continue;
          e.second = std::move(expanded);
          break;  // one Resources key: duplicate keys are refused when the document is read
        }
      }
    }
    cfn::Extractor(root, file, opts, scope, suffix, &result, nullptr, &mentions).Run();
  }
  return result;
}

}  // namespace sagelint
