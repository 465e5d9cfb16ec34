// A CDK app's recorded constructs → the CloudFormation its stacks synthesize
// → workloads, through the CloudFormation extractor.
//
// L1 `Cfn*` constructs are their resource with the props' keys matched to
// property names. The higher-level constructs sagelint reads become the
// resources the CDK renders for them: IAM roles, policies and statements
// (with `add_to_policy` → the role's default policy), the alpha SageMaker
// model, endpoint configuration and endpoint (with
// `auto_scale_instance_count` → a scalable target), Application Auto Scaling
// targets, and Step Functions SageMaker tasks (a state machine holding the
// task, with the CDK's defaults).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "parsers/aws/request.h"
#include "parsers/aws/resources.h"
#include "parsers/cdk/app.h"
#include "parsers/cloudformation/template.h"

namespace sagelint::cdk {
namespace {

using cfn::Node;

// `n` and what it holds as values built rather than read: no token a fix may edit.
void NoLiterals(Node* n) {
  n->end = {};
  n->offset = n->end_offset = 0;
  for (auto& e : n->entries) NoLiterals(&e.second);
  for (Node& i : n->items) NoLiterals(&i);
}

Node Map(SourcePos at) {
  Node n;
  n.kind = Node::Kind::kMap;
  n.pos = at;
  return n;
}

Node Seq(SourcePos at) {
  Node n;
  n.kind = Node::Kind::kSeq;
  n.pos = at;
  return n;
}

void Put(Node* map, std::string key, Node value, SourcePos at) {
  for (size_t i = 0; i < map->entries.size(); ++i) {
    if (map->entries[i].first == key) {
      map->entries[i].second = std::move(value);
      return;
    }
  }
  map->entries.emplace_back(std::move(key), std::move(value));
  map->key_pos.push_back(at);
}

Node* Slot(Node* map, const std::string& key, Node::Kind kind, SourcePos at) {
  for (auto& e : map->entries) {
    if (e.first == key) return &e.second;
  }
  Node n;
  n.kind = kind;
  n.pos = at;
  Put(map, key, std::move(n), at);
  return &map->entries.back().second;
}

// A prop of a props map by its key in any spelling ("instance_type", "instanceType").
const Node* Prop(const Node& props, std::string_view property) {
  if (!props.is_map()) return nullptr;
  for (const auto& e : props.entries) {
    if (PropertyName(e.first) == property) return &e.second;
  }
  return nullptr;
}

SourcePos KeyPos(const Node& props, std::string_view property) {
  for (size_t i = 0; i < props.entries.size(); ++i) {
    if (PropertyName(props.entries[i].first) == property && i < props.key_pos.size()) return props.key_pos[i];
  }
  return props.pos;
}

// Properties whose keys are data (environment variables, tags, hyperparameters,
// IAM policy JSON): kept as written.
bool FreeForm(std::string_view property) {
  static constexpr std::string_view kFreeForm[] = {"Environment",
                                                   "HyperParameters",
                                                   "StaticHyperParameters",
                                                   "Tags",
                                                   "PolicyDocument",
                                                   "AssumeRolePolicyDocument",
                                                   "Definition",
                                                   "DefinitionSubstitutions",
                                                   "Metadata",
                                                   "PipelineDefinitionBody",
                                                   "Condition"};
  return std::find(std::begin(kFreeForm), std::end(kFreeForm), property) != std::end(kFreeForm);
}

bool IdentifierKey(std::string_view k) {
  return !k.empty() && std::islower(static_cast<unsigned char>(k[0])) && std::all_of(k.begin(), k.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

class Synth {
 public:
  Synth(const App& app, const ResolveOptions& opts) : app_(app), opts_(opts) {}

  std::vector<FileResult> Run() {
    AssignLogicalIds();
    stacks_.resize(std::max<size_t>(app_.stacks.size(), 1) + 1);
    for (size_t i = 0; i < app_.constructs.size(); ++i) {
      Declare(static_cast<int>(i));
      const Construct& c = app_.constructs[i];
      std::string when;
      for (const std::string& cond : c.conditions) when += (when.empty() ? "condition " : " and condition ") + cond;
      if (!when.empty()) stacks_[StackOf(static_cast<int>(i))].condition_of[logical_[i]] = when;
    }
    for (const MethodCall& m : app_.methods) Method(m);
    std::vector<FileResult> results(app_.files.size());
    for (size_t f = 0; f < app_.files.size(); ++f) {
      results[f].path = app_.files[f].path;
      results[f].root_path = app_.files[f].root_path;
      results[f].format = Format::kCdk;
    }
    for (size_t s = 0; s < stacks_.size(); ++s) Extract(s, &results);
    for (const auto& [f, e] : app_.errors) results.at(f).errors.push_back(e);
    for (const auto& [f, e] : app_.notes) results.at(f).notes.push_back(e);
    for (const auto& [f, e] : app_.budgets) results.at(f).bounds.push_back(e);
    std::set<std::tuple<int, int, int>> unread;  // a call run more than once is said once
    for (const auto& [f, e] : app_.unread) {
      if (unread.insert({f, e.pos.line, e.pos.column}).second) results.at(f).unread.push_back(e);
    }
    std::vector<FileResult> out;
    for (FileResult& r : results) {
      if (!r.workloads.empty() || !r.errors.empty() || !r.notes.empty() || !r.bounds.empty() || !r.unread.empty()) {
        out.push_back(std::move(r));
      }
    }
    return out;
  }

 private:
  struct StackTemplate {
    Node resources = Map({});
    std::map<std::string, int> file_of;               // logical ID → the file of its construct call
    Node parameters = Map({});                        // CfnParameter constructs: the template's Parameters
    std::map<std::string, std::string> condition_of;  // logical ID → "condition … is true" (Construct::conditions)
  };

  // Stack index of a construct: its own, or the last slot for constructs outside any stack.
  size_t StackOf(int construct) const {
    int s = app_.constructs[construct].stack;
    return s >= 0 && static_cast<size_t>(s) < app_.stacks.size() ? static_cast<size_t>(s) : stacks_.size() - 1;
  }

  void AssignLogicalIds() {
    std::map<std::pair<int, std::string>, int> used;
    logical_.resize(app_.constructs.size());
    for (size_t i = 0; i < app_.constructs.size(); ++i) {
      const Construct& c = app_.constructs[i];
      std::string id = c.id.empty() ? c.cls + std::to_string(i + 1) : c.id;
      int& n = used[{c.stack, id}];
      logical_[i] = ++n == 1 ? id : id + "_" + std::to_string(n);
    }
  }

  const Construct* ConstructOf(const Node& v) const {
    if (v.tag != kConstructTag || !v.is_scalar()) return nullptr;
    char* end = nullptr;
    long i = std::strtol(v.text.c_str(), &end, 10);
    if (end == v.text.c_str() || i < 0 || static_cast<size_t>(i) >= app_.constructs.size()) return nullptr;
    return &app_.constructs[i];
  }
  int IndexOf(const Construct* c) const { return static_cast<int>(c - app_.constructs.data()); }

  // `.ref`, `.attr_endpoint_name`, `.roleArn`: the intrinsic they render.
  Node Attribute(const Node& v) const {
    const Node* c = v.Get("construct");
    const Node* a = v.Get("attribute");
    Node index = c ? *c : Node{};
    index.tag = std::string(kConstructTag);
    const Construct* target = ConstructOf(index);
    if (!target || !a || !a->is_scalar()) return cfn::MakeScalar(std::string(aws::kUnknownMarker), v.pos);
    const std::string& id = logical_[IndexOf(target)];
    std::string attr = PropertyName(a->text);
    // A CfnParameter's value (`valueAsString`, `value_as_number`) is its Ref, as the CDK renders it.
    bool parameter = target->module == "core" && target->cls == "CfnParameter" && attr.starts_with("ValueAs");
    if (parameter || attr == "Ref" || attr == "RoleName" || attr == "PolicyName" || attr == "ManagedPolicyArn" ||
        attr == "PolicyArn") {
      Node ref = Map(v.pos);
      Put(&ref, "Ref", cfn::MakeScalar(id, v.pos), v.pos);
      return ref;
    }
    if (attr.starts_with("Attr")) attr = attr.substr(4);
    if (attr == "RoleArn" && target->module == "iam") attr = "Arn";
    Node getatt = Map(v.pos);
    Node list = Seq(v.pos);
    list.items.push_back(cfn::MakeScalar(id, v.pos));
    list.items.push_back(cfn::MakeScalar(attr, v.pos));
    Put(&getatt, "Fn::GetAtt", std::move(list), v.pos);
    return getatt;
  }

  // A value as CloudFormation writes it: keys matched to property names
  // (except inside free-form properties), constructs and their attributes as
  // references.
  Node Value(const Node& v, bool keep_keys, int depth = 0) const {
    if (depth > 64) return cfn::MakeScalar(std::string(aws::kUnknownMarker), v.pos);
    if (v.tag == kAttributeTag) return Attribute(v);
    if (const Construct* c = ConstructOf(v)) {
      Node ref = Map(v.pos);
      Put(&ref, "Ref", cfn::MakeScalar(logical_[IndexOf(c)], v.pos), v.pos);
      return ref;
    }
    if (v.tag == "!cdk:new") {
      if (v.text == "iam.PolicyDocument") return PolicyDocument(v);
      return cfn::MakeScalar(std::string(aws::kUnknownMarker), v.pos);
    }
    if (v.is_scalar() && v.text.find('\x02') != std::string::npos) return Tokens(v, depth);
    Node out;  // the node's own fields; its children are converted one by one below
    out.kind = v.kind;
    out.text = v.text;
    out.quoted = v.quoted;
    out.pos = v.pos;
    out.end = v.end;
    out.offset = v.offset;
    out.end_offset = v.end_offset;
    if (!v.tag.empty() && !v.tag.starts_with("!cdk")) out.tag = v.tag;
    for (const Node& item : v.items) out.items.push_back(Value(item, keep_keys, depth + 1));
    for (size_t i = 0; i < v.entries.size(); ++i) {
      const auto& [k, value] = v.entries[i];
      bool intrinsic = k == "Ref" || k.starts_with("Fn::");
      std::string key = keep_keys || intrinsic || !IdentifierKey(k) ? k : PropertyName(k);
      out.entries.emplace_back(key, Value(value, keep_keys || FreeForm(key), depth + 1));
      out.key_pos.push_back(i < v.key_pos.size() ? v.key_pos[i] : v.pos);
    }
    return out;
  }

  // A string holding tokens → Fn::Join ["", [text, value, text, …]].
  Node Tokens(const Node& v, int depth) const {
    Node parts = Seq(v.pos);
    std::string_view text = v.text;
    while (!text.empty()) {
      size_t open = text.find('\x02');
      size_t close = open == std::string_view::npos ? open : text.find('\x02', open + 1);
      if (close == std::string_view::npos) {
        parts.items.push_back(cfn::MakeScalar(std::string(text), v.pos));
        break;
      }
      if (open > 0) parts.items.push_back(cfn::MakeScalar(std::string(text.substr(0, open)), v.pos));
      std::string index(text.substr(open + 1, close - open - 1));
      char* end = nullptr;
      unsigned long i = std::strtoul(index.c_str(), &end, 10);
      if (index.empty() || *end != '\0' || i >= app_.tokens.size()) {
        parts.items.push_back(cfn::MakeScalar(std::string(aws::kUnknownMarker), v.pos));
      } else {
        Node token = Value(app_.tokens[i], true, depth + 1);
        token.pos = v.pos;
        parts.items.push_back(std::move(token));
      }
      text.remove_prefix(close + 1);
    }
    Node args = Seq(v.pos);
    args.items.push_back(cfn::MakeScalar("", v.pos));
    args.items.push_back(std::move(parts));
    Node join = Map(v.pos);
    Put(&join, "Fn::Join", std::move(args), v.pos);
    return join;
  }

  Node Properties(const Construct& c) const {
    if (!c.props.is_map()) return Map(c.call.begin);
    return Value(c.props, false);
  }

  // An iam.PolicyStatement's props → a statement.
  Node Statement(const Construct& c) const {
    SourcePos at = c.call.begin;
    Node st = Map(at);
    Put(&st, "Effect", cfn::MakeScalar("Allow", at), at);
    if (!c.props.is_map()) return st;
    for (std::string_view p : {"Effect", "Actions", "NotActions", "Resources", "NotResources", "Conditions", "Sid"}) {
      const Node* v = Prop(c.props, p);
      if (!v) continue;
      std::string key = p == "Actions"        ? "Action"
                        : p == "NotActions"   ? "NotAction"
                        : p == "Resources"    ? "Resource"
                        : p == "NotResources" ? "NotResource"
                        : p == "Conditions"   ? "Condition"
                                              : std::string(p);
      Put(&st, key, Value(*v, true), KeyPos(c.props, p));
    }
    return st;
  }

  Node StatementOf(const Node& v) const {
    if (const Construct* c = ConstructOf(v); c && c->cls == "PolicyStatement") return Statement(*c);
    return Value(v, true);  // a statement written as JSON (PolicyStatement.from_json …)
  }

  Node Statements(const Node* list, SourcePos at) const {
    Node out = Seq(at);
    if (!list) return out;
    if (!list->is_seq()) {
      out.items.push_back(cfn::MakeScalar(std::string(aws::kUnknownMarker), list->pos));
      return out;
    }
    for (const Node& s : list->items) out.items.push_back(StatementOf(s));
    return out;
  }

  Node PolicyDocument(const Node& props) const {
    Node doc = Map(props.pos);
    Put(&doc, "Version", cfn::MakeScalar("2012-10-17", props.pos), props.pos);
    Put(&doc, "Statement", Statements(Prop(props, "Statements"), props.pos), props.pos);
    return doc;
  }

  Node Document(const Node& props, SourcePos at) const {
    if (const Node* d = Prop(props, "Document")) return Value(*d, true);
    return PolicyDocument(props.is_map() ? props : Map(at));
  }

  void Add(size_t stack, const std::string& id, std::string type, Node props, SourcePos at, int file,
           const Node* metadata = nullptr) {
    Node res = Map(at);
    Put(&res, "Type", cfn::MakeScalar(std::move(type), at), at);
    Put(&res, "Properties", std::move(props), at);
    if (metadata) Put(&res, "Metadata", *metadata, at);
    Put(&stacks_[stack].resources, id, std::move(res), at);
    stacks_[stack].file_of[id] = file;
  }

  Node* Resource(const Construct& c) {
    StackTemplate& st = stacks_[StackOf(IndexOf(&c))];
    return const_cast<Node*>(st.resources.Get(logical_[IndexOf(&c)]));
  }
  Node* PropertiesOf(const Construct& c) {
    Node* res = Resource(c);
    return res ? Slot(res, "Properties", Node::Kind::kMap, c.call.begin) : nullptr;
  }

  void Declare(int i) {
    const Construct& c = app_.constructs[i];
    const std::string& id = logical_[i];
    size_t stack = StackOf(i);
    SourcePos at = c.call.begin;
    if (auto type = CfnType(c.module, c.cls)) {
      Node props = Properties(c);
      if (*type == "AWS::StepFunctions::StateMachine") {
        // A DefinitionString serialized from an object (cdk::JsonString) is that object's Definition.
        for (auto& [k, v] : props.entries) {
          const Node* object = v.Get("Fn::ToJsonString");
          if (k == "DefinitionString" && v.entries.size() == 1 && object && object->is_map()) {
            k = "Definition";
            v = Node(*object);
          }
        }
      }
      Add(stack, id, *type, std::move(props), at, c.file);
      return;
    }
    const Node& p = c.props;
    if (c.module == "core" && c.cls == "CfnParameter") {
      // The stack's parameter: its Default, and a --param of its id over it, resolve as
      // CloudFormation resolves them. A fix never edits it: a deployment may pass
      // another value (docs/cdk.md "Fixes").
      Node param = Value(p.is_map() ? p : Map(at), false);
      NoLiterals(&param);
      Put(&stacks_[stack].parameters, id, std::move(param), at);
      return;
    }
    if (c.module == "iam") {
      if (c.cls == "Role") {
        Node props = Map(at);
        if (const Node* n = Prop(p, "RoleName")) Put(&props, "RoleName", Value(*n, false), KeyPos(p, "RoleName"));
        if (const Node* m = Prop(p, "ManagedPolicies")) {
          Node arns = Value(*m, true);
          // A policy written as an object (`{managedPolicyArn: '…'}`, CDK v1 style): its ARN.
          for (Node& item : arns.items) {
            if (const Node* arn = item.is_map() ? Prop(item, "ManagedPolicyArn") : nullptr) item = Node(*arn);
          }
          Put(&props, "ManagedPolicyArns", std::move(arns), KeyPos(p, "ManagedPolicies"));
        }
        if (const Node* inline_policies = Prop(p, "InlinePolicies"); inline_policies && inline_policies->is_map()) {
          Node list = Seq(inline_policies->pos);
          for (size_t k = 0; k < inline_policies->entries.size(); ++k) {
            const auto& [name, doc] = inline_policies->entries[k];
            SourcePos kp = k < inline_policies->key_pos.size() ? inline_policies->key_pos[k] : inline_policies->pos;
            Node policy = Map(kp);
            Put(&policy, "PolicyName", cfn::MakeScalar(name, kp), kp);
            Put(&policy, "PolicyDocument", Value(doc, true), kp);
            list.items.push_back(std::move(policy));
          }
          Put(&props, "Policies", std::move(list), KeyPos(p, "InlinePolicies"));
        }
        // `assumed_by` services: the trust policy the CDK writes for them (others stay unread).
        if (const Node* by = Prop(p, "AssumedBy"); by && by->is_map() && by->tag == cdk::kServicePrincipalTag) {
          SourcePos bp = KeyPos(p, "AssumedBy");
          Node principal = *by;
          principal.tag.clear();
          Put(&props, "AssumeRolePolicyDocument", TrustPolicy(std::move(principal), bp), bp);
        }
        Add(stack, id, "AWS::IAM::Role", std::move(props), at, c.file);
      } else if (c.cls == "Policy" || c.cls == "ManagedPolicy") {
        bool managed = c.cls == "ManagedPolicy";
        Node props = Map(at);
        std::string name_key = managed ? "ManagedPolicyName" : "PolicyName";
        if (const Node* n = Prop(p, name_key)) Put(&props, name_key, Value(*n, false), KeyPos(p, name_key));
        Put(&props, "PolicyDocument", Document(p, at), at);
        if (const Node* roles = Prop(p, "Roles")) Put(&props, "Roles", Value(*roles, false), KeyPos(p, "Roles"));
        Add(stack, id, managed ? "AWS::IAM::ManagedPolicy" : "AWS::IAM::Policy", std::move(props), at, c.file);
      }
      return;
    }
    if (c.module == "sagemaker-alpha") {
      AlphaConstruct(c, id, stack);
      return;
    }
    if (c.module == "applicationautoscaling" && c.cls == "ScalableTarget") {
      Node props = Map(at);
      const aws::Resource& target = aws::ResourceOf(aws::ResourceType::kScalableTarget);
      for (const aws::Field& f : target.fields) {
        if (const Node* v = Prop(p, f.property))
          Put(&props, std::string(f.property), Value(*v, false), KeyPos(p, f.property));
      }
      Add(stack, id, std::string(target.cloudformation), std::move(props), at, c.file);
      return;
    }
    if (c.module == "stepfunctions" && c.cls == "StateMachine") {
      // `definitionBody: DefinitionBody.fromString(…)`: a serialized object is the Definition, text the
      // DefinitionString (a chain of task constructs is read from the tasks themselves).
      const Node* body = Prop(p, "DefinitionBody");
      if (!body) return;
      Node props = Map(at);
      const Node* object = body->Get("Fn::ToJsonString");
      if (object && object->is_map() && body->entries.size() == 1) {
        Put(&props, "Definition", Value(*object, true), KeyPos(p, "DefinitionBody"));
      } else if ((body->is_scalar() && body->tag.empty() && body->text != aws::kUnknownMarker) ||
                 body->Get("Fn::Join")) {
        Put(&props, "DefinitionString", Value(*body, true), KeyPos(p, "DefinitionBody"));
      } else {
        return;
      }
      Add(stack, id, "AWS::StepFunctions::StateMachine", std::move(props), at, c.file);
      return;
    }
    if (c.module == "stepfunctions-tasks") StepFunctionsTask(c, id, stack);
  }

  // @aws-cdk/aws-sagemaker-alpha: Model, EndpointConfig, Endpoint.
  void AlphaConstruct(const Construct& c, const std::string& id, size_t stack) {
    const Node& p = c.props;
    SourcePos at = c.call.begin;
    Node props = Map(at);
    if (c.cls == "Model") {
      if (const Node* n = Prop(p, "ModelName")) Put(&props, "ModelName", Value(*n, false), KeyPos(p, "ModelName"));
      if (const Node* containers = Prop(p, "Containers")) {
        Node list = Value(*containers, false);
        for (Node& ct : list.items) {
          // The alpha module's `image` is the container image (ContainerImage.from_registry).
          for (auto& e : ct.entries) {
            if (e.first == "ImageUri") e.first = "Image";
          }
        }
        Put(&props, "Containers", std::move(list), KeyPos(p, "Containers"));
      }
      Add(stack, id, "AWS::SageMaker::Model", std::move(props), at, c.file);
    } else if (c.cls == "EndpointConfig") {
      if (const Node* n = Prop(p, "EndpointConfigName")) {
        Put(&props, "EndpointConfigName", Value(*n, false), KeyPos(p, "EndpointConfigName"));
      }
      Node variants = Seq(at);
      if (const Node* list = Prop(p, "InstanceProductionVariants"); list && list->is_seq()) {
        for (const Node& v : list->items) variants.items.push_back(AlphaVariant(v));
      } else if (list) {
        variants.items.push_back(cfn::MakeScalar(std::string(aws::kUnknownMarker), list->pos));
      }
      Put(&props, "ProductionVariants", std::move(variants), KeyPos(p, "InstanceProductionVariants"));
      Add(stack, id, std::string(aws::ResourceOf(aws::ResourceType::kEndpointConfig).cloudformation), std::move(props),
          at, c.file);
    } else if (c.cls == "Endpoint") {
      if (const Node* n = Prop(p, "EndpointName"))
        Put(&props, "EndpointName", Value(*n, false), KeyPos(p, "EndpointName"));
      if (const Node* cfg = Prop(p, "EndpointConfig")) {
        Node ref = Value(*cfg, false);
        if (const Construct* target = ConstructOf(*cfg)) {
          Node getatt = Map(cfg->pos);
          Node list = Seq(cfg->pos);
          list.items.push_back(cfn::MakeScalar(logical_[IndexOf(target)], cfg->pos));
          list.items.push_back(cfn::MakeScalar("EndpointConfigName", cfg->pos));
          Put(&getatt, "Fn::GetAtt", std::move(list), cfg->pos);
          ref = std::move(getatt);
        }
        Put(&props, "EndpointConfigName", std::move(ref), KeyPos(p, "EndpointConfig"));
      }
      Add(stack, id, "AWS::SageMaker::Endpoint", std::move(props), at, c.file);
    }
  }

  // An alpha InstanceProductionVariantProps → a ProductionVariant (initial instance count 1, weight 1).
  Node AlphaVariant(const Node& v) const {
    if (!v.is_map()) return Value(v, false);
    Node out = Map(v.pos);
    for (size_t i = 0; i < v.entries.size(); ++i) {
      const auto& [k, value] = v.entries[i];
      SourcePos kp = i < v.key_pos.size() ? v.key_pos[i] : v.pos;
      std::string key = PropertyName(k);
      if (key == "Model") {
        Node name = Value(value, false);
        if (const Construct* m = ConstructOf(value)) {
          name = Map(value.pos);
          Node list = Seq(value.pos);
          list.items.push_back(cfn::MakeScalar(logical_[IndexOf(m)], value.pos));
          list.items.push_back(cfn::MakeScalar("ModelName", value.pos));
          Put(&name, "Fn::GetAtt", std::move(list), value.pos);
        }
        Put(&out, "ModelName", std::move(name), kp);
      } else {
        Put(&out, key, Value(value, false), kp);
      }
    }
    if (!out.Get("InitialInstanceCount") && !out.Get("ServerlessConfig")) {
      Put(&out, "InitialInstanceCount", cfn::MakeScalar("1", v.pos, false), v.pos);
    }
    if (!out.Get("InitialVariantWeight")) Put(&out, "InitialVariantWeight", cfn::MakeScalar("1", v.pos, false), v.pos);
    return out;
  }

  // aws-stepfunctions-tasks: a state machine whose one task is the SageMaker call.
  void StepFunctionsTask(const Construct& c, const std::string& id, size_t stack) {
    const Node& p = c.props;
    SourcePos at = c.call.begin;
    std::string action;
    Node params = Map(at);
    if (c.cls == "SageMakerCreateTrainingJob") {
      action = "createTrainingJob";
      if (const Node* n = Prop(p, "TrainingJobName")) {
        Put(&params, "TrainingJobName", Value(*n, false), KeyPos(p, "TrainingJobName"));
      }
      Node algo = Map(at);
      if (const Node* a = Prop(p, "AlgorithmSpecification"); a && a->is_map()) {
        if (const Node* img = Prop(*a, "TrainingImage")) {
          Put(&algo, "TrainingImage", Value(*img, false), KeyPos(*a, "TrainingImage"));
        }
        if (const Node* name = Prop(*a, "AlgorithmName")) {
          Put(&algo, "AlgorithmName", Value(*name, false), KeyPos(*a, "AlgorithmName"));
        }
        if (const Node* mode = Prop(*a, "TrainingInputMode")) {
          Put(&algo, "TrainingInputMode", Value(*mode, false), KeyPos(*a, "TrainingInputMode"));
        }
      }
      if (!algo.Get("TrainingInputMode")) Put(&algo, "TrainingInputMode", cfn::MakeScalar("File", at), at);
      Put(&params, "AlgorithmSpecification", std::move(algo), KeyPos(p, "AlgorithmSpecification"));
      Put(&params, "ResourceConfig", TaskResources(Prop(p, "ResourceConfig"), at, "VolumeSize", "VolumeSizeInGB", 10),
          KeyPos(p, "ResourceConfig"));
      Node stop = Map(at);
      Put(&stop, "MaxRuntimeInSeconds", cfn::MakeScalar("3600", at, false), at);
      if (const Node* s = Prop(p, "StoppingCondition"); s && s->is_map()) {
        if (const Node* max = Prop(*s, "MaxRuntime")) {
          Put(&stop, "MaxRuntimeInSeconds", Value(*max, false), KeyPos(*s, "MaxRuntime"));
        }
      }
      Put(&params, "StoppingCondition", std::move(stop), KeyPos(p, "StoppingCondition"));
      if (const Node* inputs = Prop(p, "InputDataConfig")) {
        Put(&params, "InputDataConfig", TaskChannels(*inputs), KeyPos(p, "InputDataConfig"));
      }
    } else if (c.cls == "SageMakerCreateTransformJob") {
      action = "createTransformJob";
      if (const Node* n = Prop(p, "TransformJobName")) {
        Put(&params, "TransformJobName", Value(*n, false), KeyPos(p, "TransformJobName"));
      }
      if (const Node* n = Prop(p, "ModelName")) Put(&params, "ModelName", Value(*n, false), KeyPos(p, "ModelName"));
      Put(&params, "TransformResources", TaskResources(Prop(p, "TransformResources"), at, "", "", 0),
          KeyPos(p, "TransformResources"));
    } else {
      return;
    }
    Node task = Map(at);
    Put(&task, "Type", cfn::MakeScalar("Task", at), at);
    Put(&task, "Resource", cfn::MakeScalar("arn:aws:states:::sagemaker:" + action + ".sync", at), at);
    Put(&task, "Parameters", std::move(params), at);
    Put(&task, "End", cfn::MakeScalar("true", at, false), at);
    Node states = Map(at);
    Put(&states, id, std::move(task), at);
    Node def = Map(at);
    Put(&def, "StartAt", cfn::MakeScalar(id, at), at);
    Put(&def, "States", std::move(states), at);
    Node props = Map(at);
    Put(&props, "Definition", std::move(def), at);
    Add(stack, id, "AWS::StepFunctions::StateMachine", std::move(props), at, c.file);
  }

  // A task's resource config: `ml.` + the ec2 instance type (default
  // ml.m4.xlarge), the count (default 1), and the volume size when asked.
  Node TaskResources(const Node* rc, SourcePos at, std::string_view volume_prop, std::string_view volume_key,
                     int volume_default) const {
    Node out = Map(rc ? rc->pos : at);
    Node type = cfn::MakeScalar("ml.m4.xlarge", at);
    Node count = cfn::MakeScalar("1", at, false);
    if (rc && rc->is_map()) {
      if (const Node* t = Prop(*rc, "InstanceType")) {
        Node v = Value(*t, false);
        type = v.is_scalar() && v.text != aws::kUnknownMarker && !v.text.starts_with("ml.")
                   ? cfn::MakeScalar("ml." + v.text, v.pos)
                   : v;
        // The ec2 type's literal still stands for it (a fix writes it without `ml.`).
        type.end = v.end;
        type.offset = v.offset;
        type.end_offset = v.end_offset;
      }
      if (const Node* n = Prop(*rc, "InstanceCount")) count = Value(*n, false);
    }
    Put(&out, "InstanceType", std::move(type), rc ? KeyPos(*rc, "InstanceType") : at);
    Put(&out, "InstanceCount", std::move(count), rc ? KeyPos(*rc, "InstanceCount") : at);
    if (!volume_key.empty()) {
      Node size = cfn::MakeScalar(std::to_string(volume_default), at, false);
      if (rc && rc->is_map()) {
        if (const Node* v = Prop(*rc, volume_prop)) size = Value(*v, false);
      }
      Put(&out, std::string(volume_key), std::move(size), rc ? KeyPos(*rc, volume_prop) : at);
    }
    return out;
  }

  // Task channels: {channelName, dataSource: {s3DataSource: {s3Location, s3DataType}}, inputMode}.
  Node TaskChannels(const Node& inputs) const {
    if (!inputs.is_seq()) return Value(inputs, false);
    Node out = Seq(inputs.pos);
    for (const Node& ch : inputs.items) {
      Node c = Value(ch, false);
      if (Node* ds = const_cast<Node*>(c.Find({"DataSource", "S3DataSource"})); ds && ds->is_map()) {
        for (auto& e : ds->entries) {
          if (e.first == "S3Location") e.first = "S3Uri";
        }
        if (!ds->Get("S3DataType")) Put(ds, "S3DataType", cfn::MakeScalar("S3Prefix", ds->pos), ds->pos);
      }
      out.items.push_back(std::move(c));
    }
    return out;
  }

  // The trust policy letting `principal` (a `Principal` map) assume a role, as the CDK writes it.
  static Node TrustPolicy(Node principal, SourcePos at) {
    Node statement = Map(at);
    Put(&statement, "Effect", cfn::MakeScalar("Allow", at), at);
    Put(&statement, "Principal", std::move(principal), at);
    Put(&statement, "Action", cfn::MakeScalar("sts:AssumeRole", at), at);
    Node statements = Seq(at);
    statements.items.push_back(std::move(statement));
    Node trust = Map(at);
    Put(&trust, "Version", cfn::MakeScalar("2012-10-17", at), at);
    Put(&trust, "Statement", std::move(statements), at);
    return trust;
  }

  // The service whose principal alone the CDK trusts in the role it creates for
  // a construct given no `role` (a Lambda function, a state machine, a CodeBuild
  // project); "" for any other construct, or one given a role.
  static std::string ServiceRolePrincipal(const Construct& c) {
    if (Prop(c.props, "Role")) return "";
    bool function = (c.module == "lambda" &&
                     (c.cls == "Function" || c.cls == "DockerImageFunction" || c.cls == "SingletonFunction")) ||
                    c.cls == "PythonFunction" || c.cls == "NodejsFunction";
    if (function) return "lambda.amazonaws.com";
    if (c.module == "stepfunctions" && c.cls == "StateMachine") return "states.amazonaws.com";
    if (c.module == "codebuild" && (c.cls == "Project" || c.cls == "PipelineProject")) return "codebuild.amazonaws.com";
    return "";
  }

  void Method(const MethodCall& m) {
    if (m.construct < 0 || static_cast<size_t>(m.construct) >= app_.constructs.size()) return;
    const Construct& c = app_.constructs[m.construct];
    std::string name;
    for (char ch : m.method) {
      if (ch != '_') name += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    SourcePos at = m.call.begin;
    size_t stack = StackOf(m.construct);
    bool role = c.module == "iam" && c.cls == "Role";
    if (name == "addtopolicy" || name == "addtoprincipalpolicy" || name == "addtorolepolicy") {
      if (m.args.empty()) return;
      // A function's, state machine's or project's `add_to_role_policy`: the
      // default policy of the service role the CDK creates for it.
      if (role || name == "addtorolepolicy") {
        // The role's default policy, one per file that adds to it.
        std::string id = logical_[m.construct] + (role ? "DefaultPolicy" : "ServiceRoleDefaultPolicy") +
                         (m.file == c.file ? "" : std::to_string(m.file));
        Node* res = const_cast<Node*>(stacks_[stack].resources.Get(id));
        if (!res) {
          Node props = Map(at);
          Node doc = Map(at);
          Put(&doc, "Version", cfn::MakeScalar("2012-10-17", at), at);
          Put(&doc, "Statement", Seq(at), at);
          Put(&props, "PolicyDocument", std::move(doc), at);
          std::string service = role ? "" : ServiceRolePrincipal(c);
          if (!service.empty() && !stacks_[stack].resources.Get(logical_[m.construct] + "ServiceRole")) {
            // The role the CDK creates for a function or state machine given no `role`:
            // trusted by its service alone.
            Node principal = Map(at);
            Put(&principal, "Service", cfn::MakeScalar(service, at), at);
            Node role_props = Map(at);
            Put(&role_props, "AssumeRolePolicyDocument", TrustPolicy(std::move(principal), at), at);
            Add(stack, logical_[m.construct] + "ServiceRole", "AWS::IAM::Role", std::move(role_props), at, m.file);
          }
          if (role || !service.empty()) {
            Node roles = Seq(at);
            Node ref = Map(at);
            Put(&ref, "Ref", cfn::MakeScalar(logical_[m.construct] + (role ? "" : "ServiceRole"), at), at);
            roles.items.push_back(std::move(ref));
            Put(&props, "Roles", std::move(roles), at);
          }
          Add(stack, id, "AWS::IAM::Policy", std::move(props), at, m.file);
          res = const_cast<Node*>(stacks_[stack].resources.Get(id));
        }
        Node* list = const_cast<Node*>(res->Find({"Properties", "PolicyDocument", "Statement"}));
        if (list) list->items.push_back(StatementOf(m.args[0]));
      }
      return;
    }
    if (name == "addstatements") {
      Node* props = PropertiesOf(c);
      Node* list = props ? const_cast<Node*>(props->Find({"PolicyDocument", "Statement"})) : nullptr;
      if (!list) return;
      for (const Node& a : m.args) list->items.push_back(StatementOf(a));
      return;
    }
    if ((name == "attachtorole" || name == "attachtoroles") && c.module == "iam" && c.cls == "Policy") {
      // `policy.attach_to_role(role)`: the policy's Roles, as the `roles` prop writes them.
      Node* props = PropertiesOf(c);
      if (!props) return;
      for (const Node& a : m.args) {
        const Construct* role = ConstructOf(a);
        Node* roles = Slot(props, "Roles", Node::Kind::kSeq, at);
        if (!role) {
          roles->items.push_back(cfn::MakeScalar(std::string(aws::kUnknownMarker), at));
          continue;
        }
        Node ref = Map(at);
        Put(&ref, "Ref", cfn::MakeScalar(logical_[IndexOf(role)], at), at);
        roles->items.push_back(std::move(ref));
      }
      return;
    }
    if (name == "addmanagedpolicy" && c.module == "iam" && c.cls == "Role" && !m.args.empty()) {
      Node* props = PropertiesOf(c);
      if (!props) return;
      Slot(props, "ManagedPolicyArns", Node::Kind::kSeq, at)->items.push_back(Value(m.args[0], true));
      return;
    }
    if (name == "addmetadata" && m.args.size() >= 2 && m.args[0].is_scalar()) {
      Node* res = Resource(c);
      if (!res) return;
      Put(Slot(res, "Metadata", Node::Kind::kMap, at), m.args[0].text, Value(m.args[1], true), at);
      return;
    }
    if (name == "addpropertyoverride" && m.args.size() >= 2 && m.args[0].is_scalar()) {
      Node* props = PropertiesOf(c);
      if (!props) return;
      std::string path = m.args[0].text;
      for (size_t dot; (dot = path.find('.')) != std::string::npos; path = path.substr(dot + 1)) {
        props = Slot(props, path.substr(0, dot), Node::Kind::kMap, at);
        if (!props->is_map()) return;
      }
      Put(props, path, Value(m.args[1], true), at);
      return;
    }
    if (name == "findinstanceproductionvariant" && !m.args.empty() && m.args[0].is_scalar()) {
      variant_[m.construct] = m.args[0].text;
      return;
    }
    if (name == "autoscaleinstancecount" && c.module == "sagemaker-alpha" && c.cls == "Endpoint") {
      auto v = variant_.find(m.construct);
      std::string variant = v == variant_.end() ? std::string(aws::kUnknownMarker) : v->second;
      Node props = Map(at);
      Put(&props, "ServiceNamespace", cfn::MakeScalar("sagemaker", at), at);
      Put(&props, "ScalableDimension", cfn::MakeScalar("sagemaker:variant:DesiredInstanceCount", at), at);
      Node join = Map(at);
      Node args = Seq(at);
      args.items.push_back(cfn::MakeScalar("", at));
      Node parts = Seq(at);
      parts.items.push_back(cfn::MakeScalar("endpoint/", at));
      Node getatt = Map(at);
      Node ga = Seq(at);
      ga.items.push_back(cfn::MakeScalar(logical_[m.construct], at));
      ga.items.push_back(cfn::MakeScalar("EndpointName", at));
      Put(&getatt, "Fn::GetAtt", std::move(ga), at);
      parts.items.push_back(std::move(getatt));
      parts.items.push_back(cfn::MakeScalar("/variant/" + variant, at));
      args.items.push_back(std::move(parts));
      Put(&join, "Fn::Join", std::move(args), at);
      Put(&props, "ResourceId", std::move(join), at);
      Put(&props, "MinCapacity", cfn::MakeScalar("1", at, false), at);
      if (!m.args.empty() && m.args[0].is_map()) {
        if (const Node* min = Prop(m.args[0], "MinCapacity")) Put(&props, "MinCapacity", Value(*min, false), at);
        if (const Node* max = Prop(m.args[0], "MaxCapacity")) Put(&props, "MaxCapacity", Value(*max, false), at);
      }
      std::string id = logical_[m.construct] + "InstanceCountTarget";
      Add(stack, id, std::string(aws::ResourceOf(aws::ResourceType::kScalableTarget).cloudformation), std::move(props),
          at, m.file);
    }
  }

  void Extract(size_t s, std::vector<FileResult>* results) {
    StackTemplate& st = stacks_[s];
    if (st.resources.entries.empty() || app_.files.empty()) return;
    Node root = Map({1, 1});
    if (!st.parameters.entries.empty()) Put(&root, "Parameters", std::move(st.parameters), {1, 1});
    Put(&root, "Resources", std::move(st.resources), {1, 1});
    std::string stack_id = s < app_.stacks.size() && !app_.stacks[s].id.empty() ? app_.stacks[s].id : "app";
    std::string scope = "cdk:" + app_.files[0].path + "#" + stack_id;
    FileResult out;
    std::vector<std::string> owners;
    cfn::ExtractTemplate(root, app_.files[0], opts_, scope, &out, &owners);
    for (size_t i = 0; i < out.workloads.size(); ++i) {
      Workload& w = out.workloads[i];
      auto f = i < owners.size() ? st.file_of.find(owners[i]) : st.file_of.end();
      int file = f == st.file_of.end() ? 0 : f->second;
      FileResult& r = results->at(file);
      // A construct made under an unknown condition: its workloads are conditional.
      if (auto c = i < owners.size() ? st.condition_of.find(owners[i]) : st.condition_of.end();
          c != st.condition_of.end() && w.condition.empty()) {
        w.condition = c->second;
      }
      w.format = Format::kCdk;
      w.path = r.path;
      r.workloads.push_back(std::move(w));
    }
    for (ParseError& e : out.errors) results->at(0).errors.push_back(std::move(e));
    for (ParseError& e : out.notes) results->at(0).notes.push_back(std::move(e));
  }

  const App& app_;
  const ResolveOptions& opts_;
  std::vector<std::string> logical_;
  std::vector<StackTemplate> stacks_;
  std::map<int, std::string> variant_;  // endpoint → the variant last found on it
};

}  // namespace

std::vector<FileResult> Synthesize(const App& app, const ResolveOptions& opts) { return Synth(app, opts).Run(); }

}  // namespace sagelint::cdk
