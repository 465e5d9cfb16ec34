#include "parsers/cloudformation/template.h"

#include <algorithm>
#include <set>

#include "parsers/aws/request.h"
#include "parsers/cloudformation/sub.h"

namespace sagelint::cfn {
namespace {

constexpr int kMaxDepth = 64;
// A value built by Fn::Sub or Fn::Join may repeat a long parameter many times
// (`${P}${P}…`): past this size it is unknown instead of gigabytes long. Real
// values (scripts, state machine definitions) stay far below: CloudFormation
// takes templates of at most 1 MB.
constexpr size_t kMaxValueBytes = 4u << 20;

SourceRange At(const Node& n) { return {n.pos, n.pos}; }

// GetAtt attributes that return a resource's name, and the property that sets it.
std::string_view NameProperty(std::string_view attr) {
  static const std::set<std::string_view> kNames = {
      "EndpointName",         "EndpointConfigName", "ModelName",       "NotebookInstanceLifecycleConfigName",
      "NotebookInstanceName", "DomainName",         "UserProfileName", "SpaceName"};
  return kNames.count(attr) ? attr : std::string_view();
}

std::string Mark(std::string_view id) { return std::string(1, kRefMark) + std::string(id) + kRefMark; }

std::string Combine(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + " and " + b;
}

// The token of a scalar as written (quotes included), where it is one node's
// alone: not under an anchor or copied from one, not built (a loop's copy).
SourceRange LiteralOf(const Node& n) {
  if (!n.is_scalar() || n.shared || !n.tag.empty() || !n.end.valid() || n.end_offset <= n.offset) return {};
  return {n.pos, n.end};
}

// `v` (and its alternatives) without a literal: a value computed from it.
Val NoLiteral(Val v) {
  v.literal = {};
  v.literal_path.clear();
  for (Val& a : v.alternatives) a = NoLiteral(std::move(a));
  return v;
}

constexpr int kMaxMentions = 1 << 20;

void CountMentions(const Node& n, int weight, std::map<std::string, int>* out, int depth) {
  if (depth > 400) return;  // deeper than any document loads
  auto add = [&](std::string_view name) {
    int& c = (*out)[std::string(name)];
    c = std::min(kMaxMentions, c + weight);
  };
  const Node* args = nullptr;
  std::string fn = IntrinsicName(n, &args);
  if (fn == "Ref" && args->is_scalar()) {
    add(args->text);
  } else if (fn == "Fn::Sub") {
    const Node* tmpl = args->is_seq() && !args->items.empty() ? &args->items[0] : args;
    if (tmpl->is_scalar()) {
      WalkSub(
          tmpl->text, [](std::string_view) {},
          [&](std::string_view name) {
            add(name.substr(0, name.find('.')));
            return true;
          });
    }
  } else if ((fn == "Fn::ValueOf" || fn == "Fn::ValueOfAll") && args->is_seq() && !args->items.empty() &&
             args->items[0].is_scalar()) {
    add(args->items[0].text);
  }
  for (const Node& i : n.items) CountMentions(i, weight, out, depth + 1);
  for (const auto& [k, v] : n.entries) {
    CountMentions(v, k.rfind("Fn::ForEach::", 0) == 0 ? 2 : weight, out, depth + 1);
  }
}

// Prefixes every alternative of `v` with `cond`.
Val WithCondition(Val v, const std::string& cond) {
  if (v.conditional()) {
    for (Val& a : v.alternatives) a = WithCondition(std::move(a), cond);
    return v;
  }
  v.condition = Combine(cond, v.condition);
  return v;
}

}  // namespace

std::string IntrinsicName(const Node& n, const Node** args) {
  static const std::set<std::string_view> kTags = {
      "Ref",   "GetAtt", "Sub", "Join", "Select", "If",   "FindInMap", "Base64",    "GetAZs", "ImportValue",
      "Split", "Equals", "And", "Or",   "Not",    "Cidr", "Condition", "Transform", "Length", "ToJsonString"};
  if (!n.tag.empty() && n.tag[0] == '!') {
    std::string t = n.tag.substr(1);
    if (kTags.count(t)) {
      *args = &n;
      return t == "Ref" || t == "Condition" ? t : "Fn::" + t;
    }
    // An unknown tag (a preprocessor's, e.g. !Rain::Embed): a value we cannot know.
    *args = &n;
    return n.tag;
  }
  if (n.is_map() && n.entries.size() == 1) {
    const std::string& k = n.entries[0].first;
    if (k == "Ref" || k == "Condition" || k.rfind("Fn::", 0) == 0) {
      *args = &n.entries[0].second;
      return k;
    }
  }
  return {};
}

std::optional<std::string> KnownText(const Val& v) {
  if (v.known()) return v.text;
  return std::nullopt;
}

std::map<std::string, int> CountParameterMentions(const Node& root) {
  std::map<std::string, int> out;
  CountMentions(root, 1, &out, 0);
  return out;
}

Template::Template(const Node& root, const ResolveOptions& opts, const std::map<std::string, int>* mentions)
    : root_(root),
      mentions_(mentions ? *mentions : CountParameterMentions(root)),
      overrides_(opts.cfn_parameters),
      sources_(opts.cfn_parameter_sources) {
  params_ = root.Get("Parameters");
  mappings_ = root.Get("Mappings");
  resources_ = root.Get("Resources");
}

const Node* Template::Resource(std::string_view id) const { return resources_ ? resources_->Get(id) : nullptr; }

std::string_view Template::ResourceType(std::string_view id) const {
  const Node* r = Resource(id);
  const Node* t = r ? r->Get("Type") : nullptr;
  return t && t->is_scalar() ? std::string_view(t->text) : std::string_view();
}

Val Template::Resolve(const Node* n) const { return Eval(n, Mode::kValue, 0); }

std::optional<std::string> Template::ScriptText(const Node* n) const { return KnownText(Eval(n, Mode::kScript, 0)); }

std::optional<std::string> Template::PartialText(const Node* n) const { return KnownText(Eval(n, Mode::kPartial, 0)); }

std::optional<std::string> Template::LinkText(const Node* n) const {
  Val v = Eval(n, Mode::kLink, 0);
  return KnownText(v);
}

std::optional<std::string> Template::RefTarget(const Node* n) const {
  if (!n) return std::nullopt;
  auto text = LinkText(n);
  if (!text) return std::nullopt;
  size_t a = text->find(kRefMark);
  if (a == std::string::npos) return std::nullopt;
  size_t b = text->find(kRefMark, a + 1);
  if (b == std::string::npos) return std::nullopt;
  return text->substr(a + 1, b - a - 1);
}

Val Template::Eval(const Node* n, Mode mode, int depth) const {
  if (!n) return Val::Absent();
  if (depth > kMaxDepth) return Val::Unknown(At(*n), "nested too deeply");
  const Node* args = nullptr;
  std::string fn = IntrinsicName(*n, &args);
  if (!fn.empty()) {
    if (args == n) {
      // The short form `!Fn value`: the arguments are the node without its tag.
      Node untagged = *n;
      untagged.tag.clear();
      return Intrinsic(fn, untagged, *n, mode, depth);
    }
    return Intrinsic(fn, *args, *n, mode, depth);
  }
  switch (n->kind) {
    case Node::Kind::kNull:
      return Val::Absent(At(*n));
    case Node::Kind::kScalar:
      // A front end that builds the tree (a CDK app) writes what it cannot know as the unknown marker.
      if (mode != Mode::kPartial && n->text.find(aws::kUnknownMarker) != std::string::npos) {
        if (mode != Mode::kScript || n->text == aws::kUnknownMarker) return Val::Unknown(At(*n));
        // In a script it is a value substituted in, as an unresolved reference is.
        std::string text = n->text;
        for (size_t p; (p = text.find(aws::kUnknownMarker)) != std::string::npos;) {
          text.replace(p, aws::kUnknownMarker.size(), "${value}");
        }
        return Val::Known(text, At(*n));
      }
      if (mode == Mode::kValue && literals_) {
        Val v = Val::Known(n->text, At(*n));
        v.literal = LiteralOf(*n);
        return v;
      }
      return Val::Known(n->text, At(*n));
    default:
      return Val::Unknown(At(*n), "a structured value");
  }
}

Val Template::RefValue(std::string_view name, const Node& at, Mode mode) const {
  if (name == "AWS::NoValue") return Val::Absent(At(at));
  if (const Node* p = params_ ? params_->Get(name) : nullptr) {
    auto o = overrides_.find(std::string(name));
    if (o != overrides_.end()) {
      auto src = sources_.find(o->first);
      return Val::Known(
          o->second, At(at),
          "parameter " + std::string(name) + " (" + (src != sources_.end() ? src->second : "given") + ")");
    }
    const Node* def = p->Get("Default");
    if (def && def->is_scalar()) {
      Val v = Val::Known(def->text, At(at), "parameter " + std::string(name) + " default");
      // The default is this setting's alone when nothing else mentions the
      // parameter; a new default must stay within what the parameter allows.
      auto m = mentions_.find(std::string(name));
      if (mode == Mode::kValue && literals_ && m != mentions_.end() && m->second == 1 && !p->Get("AllowedValues") &&
          !p->Get("AllowedPattern")) {
        v.literal = LiteralOf(*def);
      }
      return v;
    }
    if (mode == Mode::kScript) return Val::Known("${" + std::string(name) + "}", At(at));
    return Val::Unknown(At(at), "parameter " + std::string(name) + " has no default");
  }
  if (mode == Mode::kScript) return Val::Known("${" + std::string(name) + "}", At(at));
  if (Resource(name)) {
    if (mode == Mode::kLink) return Val::Known(Mark(name), At(at));
    return Val::Unknown(At(at), "reference to resource " + std::string(name));
  }
  return Val::Unknown(At(at), "reference to " + std::string(name));
}

Val Template::GetAttValue(std::string_view res, std::string_view attr, const Node& at, Mode mode) const {
  const Node* r = Resource(res);
  if (mode == Mode::kScript && (!r || NameProperty(attr).empty())) {
    return Val::Known("${" + std::string(res) + "." + std::string(attr) + "}", At(at));
  }
  if (!r) return Val::Unknown(At(at), "attribute of " + std::string(res));
  std::string_view prop = NameProperty(attr);
  if (!prop.empty()) {
    const Node* name = r->Find({"Properties", prop});
    if (name && name->is_scalar() && name->tag.empty()) {
      return Val::Known(name->text, At(at), "name of resource " + std::string(res));
    }
  }
  if (mode == Mode::kLink) return Val::Known(Mark(res), At(at));
  if (mode == Mode::kScript) return Val::Known("${" + std::string(res) + "." + std::string(attr) + "}", At(at));
  return Val::Unknown(At(at), "attribute " + std::string(attr) + " of resource " + std::string(res));
}

Val Template::SubValue(const Node& args, const Node& at, Mode mode, int depth) const {
  const Node* tmpl = &args;
  const Node* vars = nullptr;
  if (args.is_seq() && !args.items.empty()) {
    tmpl = &args.items[0];
    if (args.items.size() > 1 && args.items[1].is_map()) vars = &args.items[1];
  }
  if (!tmpl->is_scalar()) return Val::Unknown(At(at), "Fn::Sub of a computed string");
  std::string out;
  std::string why;
  bool known = true, too_long = false;
  WalkSub(
      tmpl->text, [&](std::string_view text) { out += text; },
      [&](std::string_view name) {
        std::string var(name);
        Val v;
        if (const Node* given = vars ? vars->Get(var) : nullptr) {
          v = Eval(given, mode, depth + 1);
        } else if (size_t dot = var.find('.'); dot != std::string::npos && var.rfind("AWS::", 0) != 0) {
          v = GetAttValue(var.substr(0, dot), var.substr(dot + 1), at, mode);
        } else {
          v = RefValue(var, at, mode);
        }
        if (!v.known() && mode == Mode::kPartial) v = Val::Known(std::string(aws::kUnknownMarker), v.range);
        if (v.known()) {
          too_long = out.size() + v.text.size() > kMaxValueBytes;
          if (too_long) return false;
          out += v.text;
        } else {
          known = false;
          if (why.empty()) why = v.origin.empty() ? "${" + var + "}" : v.origin;
        }
        return true;
      });
  if (too_long) return Val::Unknown(At(at), "Fn::Sub value longer than 4 MiB");
  if (!known) return Val::Unknown(At(at), why);
  return Val::Known(out, At(at));
}

Val Template::Intrinsic(std::string_view fn, const Node& args, const Node& at, Mode mode, int depth) const {
  auto arg = [&](size_t i) -> const Node* { return args.is_seq() && i < args.items.size() ? &args.items[i] : nullptr; };
  if (fn == "Ref") return args.is_scalar() ? RefValue(args.text, at, mode) : Val::Unknown(At(at));
  if (fn == "Fn::GetAtt") {
    if (args.is_scalar()) {
      size_t dot = args.text.find('.');
      if (dot == std::string::npos) return Val::Unknown(At(at));
      return GetAttValue(std::string_view(args.text).substr(0, dot), std::string_view(args.text).substr(dot + 1), at,
                         mode);
    }
    const Node* r = arg(0);
    const Node* a = arg(1);
    if (r && a && r->is_scalar() && a->is_scalar()) return GetAttValue(r->text, a->text, at, mode);
    return Val::Unknown(At(at));
  }
  if (fn == "Fn::Sub") return SubValue(args, at, mode, depth);
  if (fn == "Fn::Base64") return NoLiteral(Eval(&args, mode, depth + 1));
  if (fn == "Fn::Join") {
    const Node* delim = arg(0);
    const Node* list = arg(1);
    if (!delim || !list || !delim->is_scalar() || !list->is_seq())
      return Val::Unknown(At(at), "Fn::Join of a computed list");
    std::string out;
    for (size_t i = 0; i < list->items.size(); ++i) {
      Val v = Eval(&list->items[i], mode, depth + 1);
      // The known text around an unknown part stays readable in kPartial.
      if (!v.known() && mode == Mode::kPartial) v = Val::Known(std::string(aws::kUnknownMarker), v.range);
      // In a script, a part a front end could not know (the marker) is a value substituted in.
      if (!v.known() && mode == Mode::kScript && list->items[i].is_scalar() &&
          list->items[i].text == aws::kUnknownMarker) {
        v = Val::Known("${value}", v.range);
      }
      if (!v.known()) return Val::Unknown(At(at), v.origin);
      if (out.size() + delim->text.size() + v.text.size() > kMaxValueBytes) {
        return Val::Unknown(At(at), "Fn::Join value longer than 4 MiB");
      }
      if (i) out += delim->text;
      out += v.text;
    }
    return Val::Known(out, At(at));
  }
  if (fn == "Fn::Select") {
    Val idx = Eval(arg(0), mode, depth + 1);
    const Node* list = arg(1);
    auto i = idx.number();
    if (!i || !list || !list->is_seq() || *i < 0 || *i >= static_cast<double>(list->items.size())) {
      return Val::Unknown(At(at), "Fn::Select of a computed list");
    }
    return NoLiteral(Eval(&list->items[static_cast<size_t>(*i)], mode, depth + 1));
  }
  if (fn == "Fn::If") {
    const Node* cond = arg(0);
    if (!cond || !cond->is_scalar() || !arg(1) || !arg(2)) return Val::Unknown(At(at));
    if (mode == Mode::kScript) return Val::Known("${if " + cond->text + "}", At(at));
    // A conditional value is no literal's alone: its fix would leave the other branch.
    Val yes = WithCondition(NoLiteral(Eval(arg(1), mode, depth + 1)), "condition " + cond->text + " is true");
    Val no = WithCondition(NoLiteral(Eval(arg(2), mode, depth + 1)), "condition " + cond->text + " is false");
    if (!yes.range.valid()) yes.range = At(*arg(1));
    if (!no.range.valid()) no.range = At(*arg(2));
    std::vector<Val> alts;
    for (Val* v : {&yes, &no}) {
      if (v->conditional()) {
        for (Val& a : v->alternatives) alts.push_back(std::move(a));
      } else {
        alts.push_back(std::move(*v));
      }
    }
    return Val::OneOf(std::move(alts), At(at));
  }
  if (fn == "Fn::FindInMap") {
    const Node* map = arg(0) && arg(0)->is_scalar() && mappings_ ? mappings_->Get(arg(0)->text) : nullptr;
    if (!map) return Val::Unknown(At(at), "Fn::FindInMap");
    Val top = Eval(arg(1), mode, depth + 1);
    Val second = Eval(arg(2), mode, depth + 1);
    if (!second.known()) return Val::Unknown(At(at), "Fn::FindInMap with a computed key");
    std::string origin = "mapping " + arg(0)->text;
    if (top.known()) {
      const Node* v = map->Find({top.text, second.text});
      if (v && v->is_scalar()) return Val::Known(v->text, At(at), origin);
      return Val::Unknown(At(at), origin);
    }
    // An unknown top-level key (often the region): known if every entry agrees.
    std::optional<std::string> same;
    for (const auto& [k, entry] : map->entries) {
      const Node* v = entry.Get(second.text);
      if (!v || !v->is_scalar() || (same && *same != v->text)) return Val::Unknown(At(at), origin);
      same = v->text;
    }
    if (same) return Val::Known(*same, At(at), origin + " (same for every key)");
    return Val::Unknown(At(at), origin);
  }
  return Val::Unknown(At(at), std::string(fn));
}

}  // namespace sagelint::cfn
