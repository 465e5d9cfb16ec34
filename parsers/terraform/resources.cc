#include "parsers/terraform/resources.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "parsers/aws/request.h"
#include "parsers/aws/resources.h"
#include "parsers/common/base64.h"

namespace sagelint::tf {
namespace {

// The resource address a link text refers to ("\x01aws_x.y\x01"), if it is only that.
std::string RefOf(const TfVal* v) {
  if (!v || v->link.size() < 3 || v->link.front() != kRefMark || v->link.back() != kRefMark) return {};
  std::string inner = v->link.substr(1, v->link.size() - 2);
  return inner.find(kRefMark) == std::string::npos ? inner : std::string();
}

void Place(cfn::Node* n, SourcePos pos, int depth) {
  n->pos = pos;
  if (depth > 64) return;
  for (SourcePos& k : n->key_pos) k = pos;
  for (cfn::Node& i : n->items) Place(&i, pos, depth + 1);
  for (auto& e : n->entries) Place(&e.second, pos, depth + 1);
}

// A JSON (or YAML) document held in an argument's text. Positions point into
// the file where the text was written, as a string or heredoc; text read from
// another file (file(), templatefile(), a template_file data source) is placed
// at the argument, since its lines are not this file's.
bool LoadText(const Resource& r, const TfVal& v, cfn::Node* doc) {
  bool from_file = v.origin.rfind("file ", 0) == 0 || v.origin.rfind("template of ", 0) == 0;
  bool here = !from_file && v.src_path == r.path && v.src.valid();
  int offset = here ? v.src.begin.line - 1 : 0;
  std::vector<cfn::LoadError> errors;
  if (!cfn::LoadDocument(v.text, offset, cfn::LoadLimits{}, doc, &errors) || !doc->is_map()) return false;
  if (!here) Place(doc, v.range.begin, 0);
  return true;
}

// The request mapper's values with their literal sites (README "Fixes"): ToNode
// places each node at its value's range, so a scalar node's position names
// the value it came from. A position where two values stand (an object read
// whole from a variable or local, placed at its use) gives no literal unless
// they are the same token.
class Literals {
 public:
  Literals(const TfVal& body, std::string home) : home_(std::move(home)) { Walk(body, 0); }

  Val operator()(const cfn::Node* n) const {
    Val v = aws::PlainValue(n);
    if (!v.known() || !n->is_scalar()) return v;
    auto it = sites_.find({n->pos.line, n->pos.column});
    if (it == sites_.end() || !it->second.ok) return v;
    v.literal = it->second.src;
    if (it->second.path != home_) v.literal_path = it->second.path;
    return v;
  }

 private:
  struct Site {
    SourceRange src;
    std::string path;
    bool ok = false;
  };

  void Walk(const TfVal& v, int depth) {
    if (depth > 64) return;
    if (v.kind == TfVal::Kind::kMap || v.kind == TfVal::Kind::kList) {
      for (const TfVal& i : v.items) Walk(i, depth + 1);
      for (const auto& f : v.fields) Walk(f.second, depth + 1);
      return;
    }
    Site site;
    if (v.known() && v.literal && v.src.valid() && !v.src_path.empty()) site = {v.src, v.src_path, true};
    auto [it, fresh] = sites_.try_emplace({v.range.begin.line, v.range.begin.column}, site);
    if (!fresh && (!site.ok || it->second.src != site.src || it->second.path != site.path)) it->second.ok = false;
  }

  std::string home_;
  std::map<std::pair<int, int>, Site> sites_;
};

class Extractor {
 public:
  Extractor(const std::vector<Resource>& resources, std::vector<Workload>* out) : rs_(resources), out_(out) {}

  void Run(const Resource* only) {
    if (only) {
      One(*only);
      return;
    }
    for (const Resource& r : rs_) One(r);
  }

 private:
  void One(const Resource& r) {
    size_t before = out_->size();
    Dispatch(r);
    // A called module's workloads say which module call reaches them.
    if (!r.via.empty() && before < out_->size()) {
      ModuleCaller caller{r.via_path, r.via_call, {}};
      std::map<std::pair<int, int>, int> seen;  // position -> index in values, -1 when written in two places
      CallerValues(r.body, r.path, &caller, &seen, 0);
      std::erase_if(caller.values, [&](const ModuleCaller::Value& v) { return seen[{v.at.line, v.at.column}] < 0; });
      for (size_t i = before; i < out_->size(); ++i) {
        (*out_)[i].label += " (module call in " + r.via + ")";
        (*out_)[i].module_caller = caller;
      }
    }
  }

  // The values of a module's resource written outside the module's file
  // (`path`): a module argument, a variable default of the root module, a
  // tfvars value. A position whose values were written in different places
  // says nothing about where one value came from, and is left out.
  static void CallerValues(const TfVal& v, const std::string& path, ModuleCaller* caller,
                           std::map<std::pair<int, int>, int>* seen, int depth) {
    constexpr int kMaxDepth = 64;
    constexpr size_t kMaxValues = 4096;
    if (depth > kMaxDepth || caller->values.size() >= kMaxValues) return;
    if (v.range.valid() && !v.src_path.empty() && v.src_path != path && v.src.valid()) {
      auto [it, fresh] =
          seen->try_emplace({v.range.begin.line, v.range.begin.column}, static_cast<int>(caller->values.size()));
      if (fresh) {
        caller->values.push_back({v.range.begin, v.src_path, v.src});
      } else if (it->second >= 0) {
        const ModuleCaller::Value& known = caller->values[it->second];
        if (known.path != v.src_path || known.src != v.src) it->second = -1;
      }
    }
    for (const TfVal& i : v.items) CallerValues(i, path, caller, seen, depth + 1);
    for (const auto& f : v.fields) CallerValues(f.second, path, caller, seen, depth + 1);
  }

  void Dispatch(const Resource& r) {
    {
      const std::string& t = r.type;
      if (r.mode == "data") {
        if (t == "aws_iam_policy_document") PolicyDocumentData(r);
        return;
      }
      if (const aws::Resource* known = aws::ResourceOfTerraform(t))
        SageMakerResource(*known, r);
      else if (t == "aws_iam_policy" || t == "aws_iam_role_policy")
        Policy(r, r.body.Get("policy"));
      else if (t == "aws_iam_role")
        Role(r);
      else if (t == "aws_iam_role_policy_attachment" || t == "aws_iam_policy_attachment" ||
               t == "aws_iam_user_policy_attachment" || t == "aws_iam_group_policy_attachment") {
        Attachment(r);
      } else if (t == "aws_iam_role_policy_attachments_exclusive") {
        if (const TfVal* arns = r.body.Get("policy_arns"); arns && arns->kind == TfVal::Kind::kList) {
          for (const TfVal& a : arns->items) ManagedPolicy(r, &a);
        }
      } else if (t == "aws_sfn_state_machine") {
        StateMachine(r);
      }
    }
  }

  // A resource of the table in parsers/aws/resources.cc.
  void SageMakerResource(const aws::Resource& a, const Resource& r) {
    switch (a.type) {
      case aws::ResourceType::kNotebookInstance:
        return Notebook(a, r);
      case aws::ResourceType::kLifecycleConfig:
        return LifecycleConfig(a, r);
      case aws::ResourceType::kEndpointConfig:
        return EndpointConfig(a, r);
      case aws::ResourceType::kStudioDomain:
      case aws::ResourceType::kStudioUserProfile:
      case aws::ResourceType::kStudioSpace:
        return Studio(a, r);
      case aws::ResourceType::kScalableTarget:
        return ScalableTarget(a, r);
      case aws::ResourceType::kHyperPodCluster:
      case aws::ResourceType::kStudioApp:
      case aws::ResourceType::kInferenceComponent:
        return Standalone(a, r);
      case aws::ResourceType::kTrainingJob:
      case aws::ResourceType::kTuningJob:
      case aws::ResourceType::kProcessingJob:
      case aws::ResourceType::kTransformJob:
        return Request(a, r);
    }
  }

  Workload Base(const Resource& r, WorkloadKind kind, std::string_view what) {
    Workload w;
    w.kind = kind;
    w.format = r.format;
    w.path = r.path;
    w.scope = r.scope;
    w.name = r.address;
    w.label = std::string(what) + " '" + r.address + "'";
    w.range = r.range;
    w.complete = !r.body.dynamic;
    if (!r.construct.empty())
      w.member_of = {ConstructMember::Kind::kInstance, r.construct, r.instance_key, r.instances};
    return w;
  }
  std::string Ref(const Resource& r, const std::string& address) const { return aws::ResourceKey(r.scope, address); }
  const Resource* Find(const std::string& address) const {
    for (const Resource& r : rs_) {
      if (r.address == address && r.mode == "resource") return &r;
    }
    return nullptr;
  }

  void Notebook(const aws::Resource& a, const Resource& r) {
    Workload w = Base(r, a.kind, a.label);
    const TfVal& b = r.body;
    for (const aws::Field& f : a.fields) w.*f.member = ToVal(b.Get(aws::TerraformName(r.type, f.property)), r.path);
    for (const aws::Field& f : a.list_heads) {
      const TfVal* list = b.Get(aws::TerraformName(r.type, f.property));
      if (list && list->kind == TfVal::Kind::kList && !list->items.empty())
        w.*f.member = ToVal(&list->items[0], r.path);
    }
    const TfVal* lc = b.Get(aws::TerraformName(r.type, "LifecycleConfigName"));
    aws::AddLifecycleConfigRefs(&w);
    auto add_ref = [&](const TfVal* v) {
      std::string ref = RefOf(v);
      if (!ref.empty()) w.refs.push_back(Ref(r, ref));
    };
    add_ref(lc);
    if (lc && lc->kind == TfVal::Kind::kCond) {
      for (const TfVal& alt : lc->items) add_ref(&alt);
    }
    out_->push_back(std::move(w));
  }

  void LifecycleConfig(const aws::Resource& a, const Resource& r) {
    Workload w = Base(r, a.kind, a.label);
    w.keys.push_back(Ref(r, r.address));
    const TfVal* name = r.body.Get(aws::TerraformName(r.type, a.name_property));
    if (name && name->known()) w.keys.push_back(aws::LifecycleConfigKey(name->text));
    for (const aws::Field& f : a.scripts) w.*f.member = Script(r.body.Get(aws::TerraformName(r.type, f.property)));
    out_->push_back(std::move(w));
  }

  static Val Script(const TfVal* v) {
    if (!v || v->kind == TfVal::Kind::kNull) return Val::Absent();
    if (!v->known()) return Val::Unknown(v->range, "script not resolvable");
    bool ok = false;
    std::string text = Base64Decode(v->text, &ok);
    if (!ok) return Val::Unknown(v->range, "on_start is not base64");
    return Val::Known(text, v->range, "decoded script");
  }

  void EndpointConfig(const aws::Resource& a, const Resource& r) {
    const TfVal& b = r.body;
    const TfVal* cfg_name = b.Get(aws::TerraformName(r.type, a.name_property));
    // Endpoints deploying this configuration, by reference or by name.
    std::vector<aws::Deployer> endpoints;
    for (const Resource& e : rs_) {
      if (e.type != "aws_sagemaker_endpoint" || e.mode != "resource") continue;
      const TfVal* ref = e.body.Get("endpoint_config_name");
      if (!ref) continue;
      bool uses =
          RefOf(ref) == r.address || (ref->known() && cfg_name && cfg_name->known() && ref->text == cfg_name->text);
      if (!uses) continue;
      const TfVal* ename = e.body.Get("name");
      endpoints.push_back({Ref(r, e.address), ename && ename->known() ? Foreign(ename) : Val::Absent()});
    }
    bool async = b.Block("async_inference_config") != nullptr;
    std::vector<const TfVal*> variants;
    for (const aws::ListProperty& list : a.variants) {
      if (!(list.read_by & aws::kReadByTerraform)) continue;
      for (const TfVal* v : b.Blocks(aws::TerraformName(r.type, list.property))) variants.push_back(v);
    }
    for (const TfVal* v : variants) {
      Workload w = Base(r, a.kind, a.label);
      for (const aws::Field& f : a.fields) w.*f.member = ToVal(v->Get(aws::TerraformName(r.type, f.property)), r.path);
      const Val& vname = w.variant_name;
      std::string variant = vname.known() ? vname.text : "?";
      w.name = r.address + "/" + variant;
      w.label = std::string(a.label) + " '" + w.name + "'";
      w.range = v->range.valid() ? v->range : r.range;
      w.complete = w.complete && !v->dynamic;
      if (const TfVal* s = v->Block("serverless_config")) w.serverless = Val::Known("true", s->range);
      if (const TfVal* m = v->Block("managed_instance_scaling")) w.managed_scaling = ToVal(m->Get("status"), r.path);
      if (async) w.async_inference = Val::Known("true", b.Block("async_inference_config")->range);
      ModelImage(v->Get("model_name"), &w);
      if (vname.known()) aws::AddVariantKeys(endpoints, variant, &w);
      out_->push_back(std::move(w));
    }
  }

  // A value of another resource: a fix of this workload never edits it.
  static Val Foreign(const TfVal* v) {
    Val out = ToVal(v, {});
    out.literal = {};
    out.literal_path.clear();
    return out;
  }

  void ModelImage(const TfVal* model_name, Workload* w) {
    const Resource* model = nullptr;
    std::string ref = RefOf(model_name);
    if (!ref.empty()) model = Find(ref);
    if (!model && model_name && model_name->known()) {
      for (const Resource& m : rs_) {
        const TfVal* n = m.body.Get("name");
        if (m.type == "aws_sagemaker_model" && n && n->known() && n->text == model_name->text) model = &m;
      }
    }
    if (!model) return;
    if (const TfVal* primary = model->body.Block("primary_container")) {
      w->image = Foreign(primary->Get("image"));
      return;
    }
    for (const TfVal* c : model->body.Blocks("container")) aws::ChooseServedImage(Foreign(c->Get("image")), &w->image);
  }

  void Studio(const aws::Resource& a, const Resource& r) {
    WorkloadKind kind = a.kind;
    Workload w = Base(r, kind, a.label);
    // What is absent is known unless a dynamic block could add the app settings
    // (a dynamic block adds only blocks of its name).
    w.complete = true;
    for (std::string_view scope : aws::StudioSettings(kind)) {
      std::string key = aws::TerraformName(r.type, scope);
      if (r.body.MayAddBlock(key)) w.complete = false;
      const TfVal* settings = r.body.Block(key);
      if (!settings) continue;
      for (std::string_view app : aws::StudioApps()) {
        std::string app_key = aws::TerraformName(r.type, std::string(app) + "AppSettings");
        if (settings->MayAddBlock(app_key)) w.complete = false;
        const TfVal* s = settings->Block(app_key);
        if (!s) continue;
        StudioApp a;
        a.app = std::string(app);
        a.scope = std::string(scope);
        // The whole block: a fix inserts idle settings into it.
        a.range = s->block.valid() ? s->block : s->range;
        if (const TfVal* spec = s->Block("default_resource_spec"))
          a.instance_type = ToVal(spec->Get("instance_type"), r.path);
        const TfVal* alm = s->Block("app_lifecycle_management");
        const TfVal* idle = alm ? alm->Block("idle_settings") : nullptr;
        if (idle) {
          a.idle_management = ToVal(idle->Get("lifecycle_management"), r.path);
          a.idle_timeout_minutes = ToVal(idle->Get("idle_timeout_in_minutes"), r.path);
        } else if (alm ? alm->MayAddBlock("idle_settings") : s->MayAddBlock("app_lifecycle_management")) {
          a.idle_management = Val::Unknown(s->range, "a dynamic block may set the idle settings");
          a.idle_timeout_minutes = a.idle_management;
        }
        w.apps.push_back(std::move(a));
      }
    }
    out_->push_back(std::move(w));
  }

  void Request(const aws::Resource& a, const Resource& r) {
    aws::RequestKind kind = a.request;
    bool complete = !r.body.dynamic;
    cfn::Node req = ToNode(r.body, true, &complete);
    // Single nested blocks arrive as lists of one object; unwrap all but the real lists.
    Unwrap(&req, 0);
    Workload base = Base(r, a.kind, a.label);
    std::vector<Workload> made;
    aws::MapRequest(kind, req, Literals(r.body, r.path), base, &made);
    for (Workload& w : made) {
      if (!complete) w.complete = false;
      out_->push_back(std::move(w));
    }
  }

  // Resources parsers/aws maps whole, read from the body with CloudFormation's
  // names: a HyperPod cluster, a Studio app, an inference component.
  void Standalone(const aws::Resource& a, const Resource& r) {
    bool complete = !r.body.dynamic;
    cfn::Node props = ToNode(r.body, true, &complete);
    for (auto& [key, v] : props.entries) key = std::string(aws::PropertyOfTerraform(r.type, key));
    Unwrap(&props, 0);
    std::vector<Workload> made;
    aws::ValueFn value = Literals(r.body, r.path);
    if (a.type == aws::ResourceType::kHyperPodCluster) {
      aws::MapCluster(&props, value, Base(r, a.kind, a.label), &made);
      // Instance groups a dynamic block makes are not seen: the cluster's size is unknown.
      if (r.body.MayAddBlock("instance_group")) {
        InstanceGroup g;
        g.range = r.range;
        g.name = g.instance_type = g.instance_count = Val::Unknown(r.range, "a dynamic block may add instance groups");
        made.back().instance_groups.push_back(std::move(g));
      }
    } else if (a.type == aws::ResourceType::kStudioApp) {
      aws::MapStudioApp(&props, value, Base(r, a.kind, a.label), &made);
    } else {
      std::string endpoint = RefOf(r.body.Get("endpoint_name"));
      const Resource* e = endpoint.empty() ? nullptr : Find(endpoint);
      std::string key = e && e->type == "aws_sagemaker_endpoint" ? Ref(r, endpoint) : std::string();
      aws::MapInferenceComponent(&props, value, key, Base(r, a.kind, a.label), &made);
    }
    for (Workload& w : made) {
      if (!complete) w.complete = false;
      out_->push_back(std::move(w));
    }
  }

  static void Unwrap(cfn::Node* n, int depth) {
    if (depth > 32) return;
    static const std::set<std::string> kLists = {"InputDataConfig", "InstanceGroups", "TrainingJobDefinitions"};
    for (auto& [k, v] : n->entries) {
      if (v.is_seq() && !kLists.count(k) && v.items.size() == 1 && v.items[0].is_map()) {
        cfn::Node one = v.items[0];
        v = one;
      }
      if (v.is_map()) Unwrap(&v, depth + 1);
      for (cfn::Node& item : v.items) Unwrap(&item, depth + 1);
    }
  }

  void ScalableTarget(const aws::Resource& a, const Resource& r) {
    Workload w = Base(r, a.kind, a.label);
    const TfVal& b = r.body;
    for (const aws::Field& f : a.fields) {
      w.*f.member = ToVal(b.Get(aws::TerraformName(r.type, f.property)), r.path);
    }
    const TfVal* id = b.Get("resource_id");
    if (auto parts = id ? aws::SplitVariantResourceId(id->known() ? id->text : id->link) : std::nullopt) {
      const auto& [endpoint, variant] = *parts;
      if (endpoint.size() > 2 && endpoint.front() == kRefMark && endpoint.back() == kRefMark &&
          endpoint.find(kRefMark, 1) == endpoint.size() - 1) {
        w.refs.push_back(aws::VariantKey(Ref(r, endpoint.substr(1, endpoint.size() - 2)), variant));
      } else if (endpoint.find(kRefMark) == std::string::npos) {
        w.refs.push_back(aws::VariantKey(aws::EndpointKey(endpoint), variant));
      }
    }
    out_->push_back(std::move(w));
  }

  // The services that alone can assume a role, from a data.aws_iam_policy_document's
  // statements: every Allow's principals of type Service, all known. Empty otherwise.
  std::vector<std::string> DocumentTrust(const Resource& d) {
    std::vector<std::string> services;
    bool allows = false;
    for (const TfVal* s : d.body.Blocks("statement")) {
      const TfVal* effect = s->Get("effect");
      if (s->dynamic || (effect && !effect->known())) return {};
      if (effect && effect->text == "Deny") continue;
      std::vector<const TfVal*> principals = s->Blocks("principals");
      if (principals.empty() || !s->Blocks("not_principals").empty()) return {};
      for (const TfVal* p : principals) {
        const TfVal* type = p->Get("type");
        const TfVal* ids = p->Get("identifiers");
        if (!type || !type->known() || type->text != "Service" || !ids || ids->kind != TfVal::Kind::kList) return {};
        for (const TfVal& id : ids->items) {
          if (!id.known() || id.text.empty() || id.text.find('*') != std::string::npos) return {};
          services.push_back(id.text);
        }
      }
      allows = true;
    }
    if (!allows) return {};
    std::sort(services.begin(), services.end());
    services.erase(std::unique(services.begin(), services.end()), services.end());
    return services;
  }

  // The services that alone can assume an aws_iam_role, from its assume_role_policy.
  std::vector<std::string> RoleTrust(const Resource& role) {
    const TfVal* trust = role.body.Get("assume_role_policy");
    if (!trust) return {};
    if (std::string ref = RefOf(trust); !ref.empty()) {
      for (const Resource& d : rs_) {
        if (d.address == ref && d.type == "aws_iam_policy_document") return DocumentTrust(d);
      }
      return {};
    }
    cfn::Node doc;
    if (trust->kind == TfVal::Kind::kMap) {
      bool complete = true;
      doc = ToNode(*trust, false, &complete);
      if (!complete) return {};
    } else if (!trust->known() || !LoadText(role, *trust, &doc)) {
      return {};
    }
    return aws::TrustedServices(doc, aws::PlainValue);
  }

  // The services that alone can use what `r` grants: a role's own trust, or
  // that of the one role an aws_iam_role_policy or a role attachment names.
  std::vector<std::string> HolderTrust(const Resource& r) {
    if (r.type == "aws_iam_role") return RoleTrust(r);
    if (r.type != "aws_iam_role_policy" && r.type != "aws_iam_role_policy_attachment") return {};
    const TfVal* role = r.body.Get("role");
    if (!role) return {};
    std::string ref = RefOf(role);
    for (const Resource& c : rs_) {
      if (c.type != "aws_iam_role" || c.scope != r.scope) continue;
      const TfVal* name = c.body.Get("name");
      bool named = !ref.empty() ? ref == c.address : role->known() && name && name->known() && name->text == role->text;
      if (named) return RoleTrust(c);
    }
    return {};
  }

  void Policy(const Resource& r, const TfVal* policy) {
    if (!policy) return;
    // `policy = data.aws_iam_policy_document.x.json`: reported with the data source.
    if (!RefOf(policy).empty()) return;
    Workload base = Base(r, WorkloadKind::kIamStatement, "IAM policy");
    base.iam.trusted_services = HolderTrust(r);
    const TfVal* name = r.body.Get("name");
    std::string label = name && name->known() ? name->text : r.address;
    if (policy->kind == TfVal::Kind::kMap) {
      bool complete = true;
      cfn::Node doc = ToNode(*policy, false, &complete);
      aws::MapPolicyDocument(doc, aws::PlainValue, base, label, out_);
    } else if (policy->known()) {
      cfn::Node doc;
      if (LoadText(r, *policy, &doc)) aws::MapPolicyDocument(doc, aws::PlainValue, base, label, out_);
    }
  }

  void Role(const Resource& r) {
    for (const TfVal* inline_policy : r.body.Blocks("inline_policy")) Policy(r, inline_policy->Get("policy"));
    if (const TfVal* arns = r.body.Get("managed_policy_arns"); arns && arns->kind == TfVal::Kind::kList) {
      for (const TfVal& a : arns->items) ManagedPolicy(r, &a);
    }
  }

  void Attachment(const Resource& r) { ManagedPolicy(r, r.body.Get("policy_arn")); }

  // The ARN may be partly unknown (its partition from a data source or a
  // module): the known parts are enough to name the AWS managed policy.
  void ManagedPolicy(const Resource& r, const TfVal* arn) {
    if (!arn) return;
    const std::string& text = arn->known() ? arn->text : arn->shape;
    if (!aws::IsSageMakerFullAccessArn(text)) return;
    Workload base = Base(r, WorkloadKind::kIamStatement, "IAM");
    base.iam.trusted_services = HolderTrust(r);
    out_->push_back(
        aws::SageMakerFullAccess(base, arn->range.valid() ? arn->range : r.range, "'" + r.address + "'", r.address));
  }

  void PolicyDocumentData(const Resource& r) {
    int index = 0;
    for (const TfVal* s : r.body.Blocks("statement")) {
      ++index;
      Workload w = Base(r, WorkloadKind::kIamStatement, "IAM policy");
      w.range = s->range.valid() ? s->range : r.range;
      w.label = "IAM policy '" + r.address + "' statement " + std::to_string(index);
      w.iam.policy = r.address;
      const TfVal* effect = s->Get("effect");
      w.iam.effect = effect ? ToVal(effect, r.path) : Val::Known("Allow", w.range, "default");
      const TfVal* actions = s->Get("actions");
      if (!actions && (actions = s->Get("not_actions"))) w.iam.not_action = true;
      if (!actions) continue;
      if (actions->kind == TfVal::Kind::kList) {
        for (const TfVal& a : actions->items) {
          w.iam.actions.push_back(ToVal(&a, r.path));
          if (!a.known()) w.iam.actions_complete = false;
        }
      } else {
        w.iam.actions_complete = false;
      }
      const TfVal* resources = s->Get("resources");
      if (!resources && (resources = s->Get("not_resources"))) w.iam.not_resource = true;
      if (resources && resources->kind == TfVal::Kind::kList) {
        for (const TfVal& res : resources->items) w.iam.resources.push_back(ToVal(&res, r.path));
      } else if (resources) {
        w.iam.resources.push_back(Val::Unknown(resources->range));
      }
      for (const TfVal* c : s->Blocks("condition")) {
        IamCondition cond;
        Val test = ToVal(c->Get("test"), r.path);
        Val variable = ToVal(c->Get("variable"), r.path);
        cond.op = test.known() ? test.text : "";
        cond.key = variable.known() ? variable.text : "";
        cond.known = test.known() && variable.known();
        if (const TfVal* values = c->Get("values"); values && values->kind == TfVal::Kind::kList) {
          for (const TfVal& v : values->items) {
            if (v.known())
              cond.values.push_back(v.text);
            else
              cond.known = false;
          }
        } else {
          cond.known = false;
        }
        if (!cond.known) w.iam.conditions_known = false;
        w.iam.conditions.push_back(std::move(cond));
      }
      if (s->dynamic) w.iam.conditions_known = false;
      out_->push_back(std::move(w));
    }
  }

  void StateMachine(const Resource& r) {
    const TfVal* def = r.body.Get("definition");
    if (!def) return;
    Workload base = Base(r, WorkloadKind::kTrainingJob, "state machine");
    if (def->kind == TfVal::Kind::kMap) {
      bool complete = true;
      cfn::Node doc = ToNode(*def, false, &complete);
      aws::MapStateMachine(doc, Literals(*def, r.path), base, out_);
    } else if (def->known()) {
      cfn::Node doc;
      if (LoadText(r, *def, &doc)) aws::MapStateMachine(doc, aws::PlainValue, base, out_);
    }
  }

  const std::vector<Resource>& rs_;
  std::vector<Workload>* out_;
};

}  // namespace

void ExtractWorkloads(const std::vector<Resource>& resources, std::vector<Workload>* out, const Resource* only) {
  Extractor(resources, out).Run(only);
}

}  // namespace sagelint::tf
