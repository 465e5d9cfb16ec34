// AWS CDK apps in Python (docs/architecture.md "CDK apps"): the app's entry and the modules it
// imports within the scan root, run by the interpreter as a whole program
// (program.cc) with the CDK library model in front of the SDK model. The
// model records what the app builds (cdk::App): every construct created from
// a CDK module with its props, the methods called on constructs, the stacks;
// value-producing CDK calls and enum members are asked of the shared part
// (cdk::CallValue / cdk::MemberValue). `json.load(open(…))` of a file in the
// scan root and `node.try_get_context(…)` (cdk.json's context) give values.
#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/base/file_source.h"
#include "linter/base/strings.h"
#include "parsers/aws/request.h"
#include "parsers/cdk/app.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/python/analyzer.h"
#include "parsers/python/sdk_model.h"

namespace sagelint {
namespace py {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxFileBytes = 1u << 20;  // a module or JSON file the app reads
constexpr size_t kMaxFiles = 64;            // Python files of one app
constexpr int kMaxNodeDepth = 64;
constexpr size_t kMaxConstructs = 10000;  // per app

bool IsCdkPath(std::string_view q) {
  return q == "aws_cdk" || q.starts_with("aws_cdk.") || q == "constructs" || q.starts_with("constructs.");
}

bool StartsUpper(std::string_view s) { return !s.empty() && s[0] >= 'A' && s[0] <= 'Z'; }
bool HasLower(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// "aws_cdk.aws_sagemaker.CfnEndpointConfig.ProductionVariantProperty" →
// module path "aws_cdk.aws_sagemaker", classes {CfnEndpointConfig,
// ProductionVariantProperty}; "aws_cdk.aws_ec2.InstanceClass.P3" → member "P3";
// "aws_cdk.aws_iam.ManagedPolicy.from_aws_managed_policy_name" → member.
struct CdkName {
  std::string module_path;
  std::vector<std::string> classes;
  std::string member;
  bool extra = false;  // something follows the member (`X.P3.foo`)
  std::string cls() const { return classes.empty() ? std::string() : classes.back(); }
};

CdkName SplitName(std::string_view q) {
  CdkName n;
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= q.size()) {
    size_t dot = q.find('.', start);
    if (dot == std::string_view::npos) dot = q.size();
    parts.push_back(q.substr(start, dot - start));
    start = dot + 1;
  }
  size_t i = 0;
  for (; i < parts.size() && !StartsUpper(parts[i]); ++i) {
    if (!n.module_path.empty()) n.module_path += '.';
    n.module_path += parts[i];
  }
  for (; i < parts.size() && StartsUpper(parts[i]) && HasLower(parts[i]); ++i) n.classes.emplace_back(parts[i]);
  if (i < parts.size()) n.member = std::string(parts[i++]);
  n.extra = i < parts.size();
  return n;
}

bool IsTestPath(std::string_view rel) {
  fs::path p(rel);
  for (const auto& part : p) {
    std::string s = part.string();
    if (s == "test" || s == "tests") return true;
  }
  std::string name = p.filename().string();
  return name.starts_with("test_") || name.ends_with("_test.py") || name == "conftest.py";
}

// Whether `path` (canonical) is `root` or inside it.
bool Within(const std::string& path, const std::string& root) {
  if (root.empty()) return false;
  if (path == root) return true;
  std::string prefix = root.back() == '/' ? root : root + "/";
  return path.starts_with(prefix);
}

// The app's Python files: the entry, then each module as an import first names it.
class Finder final : public ModuleFinder {
 public:
  Finder(const cdk::AppInput& in, cdk::App* app) : in_(in), app_(app) {
    const FileSource& files = *in.opts->files;
    root_ = files.Canonical(in.opts->root).value_or(in.opts->root);
    fs::path entry = in.entry.abs_path.empty() ? fs::path(in.opts->root) / in.entry.path : fs::path(in.entry.abs_path);
    std::string dir = entry.parent_path().string();
    app_dir_ = files.Canonical(dir).value_or(dir);
    entry_display_dir_ = fs::path(in.entry.path).parent_path().generic_string();
    dirs_.push_back(app_dir_);
    // The entry imported by name (`import app`) is the module already running: read once.
    if (std::optional<std::string> canonical = files.Canonical(entry.string())) by_path_[*canonical] = 0;
  }

  // The entry's own text and tree (file 0).
  std::optional<ModuleFile> Entry() {
    texts_.emplace_back(StripUtf8Bom(in_.entry.text));
    return Parse(0, texts_.back());
  }

  const std::string& app_dir() const { return app_dir_; }
  const std::string& root() const { return root_; }
  const std::string& DirOf(int file) const { return dirs_[static_cast<size_t>(file)]; }

  std::optional<ModuleFile> Find(int from_file, std::string_view dotted, int level) override {
    if (from_file < 0 || static_cast<size_t>(from_file) >= dirs_.size()) return std::nullopt;
    fs::path base = level == 0 ? fs::path(app_dir_) : fs::path(dirs_[static_cast<size_t>(from_file)]);
    for (int up = 1; up < level; ++up) base = base.parent_path();
    std::string rel(dotted);
    std::replace(rel.begin(), rel.end(), '.', '/');
    std::vector<fs::path> candidates;
    if (rel.empty()) {
      candidates.push_back(base / "__init__.py");
    } else {
      candidates.push_back(base / (rel + ".py"));
      candidates.push_back(base / rel / "__init__.py");
    }
    const FileSource& files = *in_.opts->files;
    for (const fs::path& c : candidates) {
      if (!files.IsRegularFile(c.string())) continue;
      std::optional<std::string> canonical = files.Canonical(c.string());
      if (!canonical || !Within(*canonical, root_)) return std::nullopt;  // never outside the scan root
      std::string rel_root = fs::path(*canonical).lexically_relative(root_).generic_string();
      if (IsTestPath(rel_root)) return std::nullopt;  // test files are not part of the app
      auto known = by_path_.find(*canonical);
      if (known != by_path_.end()) return modules_[static_cast<size_t>(known->second)];
      if (app_->files.size() >= kMaxFiles) return std::nullopt;
      std::string text, error;
      if (!files.Read(*canonical, kMaxFileBytes, &text, &error)) {
        app_->notes.push_back({0, ParseError{"could not read module " + rel_root + ": " + error, {1, 1}}});
        return std::nullopt;
      }
      SourceFile sf;
      sf.abs_path = *canonical;
      std::string from_app = fs::path(*canonical).lexically_relative(app_dir_).generic_string();
      if (!from_app.empty() && !from_app.starts_with("..")) {
        sf.path = entry_display_dir_.empty() ? from_app : entry_display_dir_ + "/" + from_app;
      } else {
        sf.path = rel_root;
      }
      sf.root_path = rel_root;
      sf.text = std::move(text);
      int id = static_cast<int>(app_->files.size());
      app_->files.push_back(std::move(sf));
      dirs_.push_back(fs::path(*canonical).parent_path().string());
      texts_.emplace_back(StripUtf8Bom(app_->files.back().text));
      std::optional<ModuleFile> m = Parse(id, texts_.back());
      by_path_[*canonical] = id;
      if (modules_.size() <= static_cast<size_t>(id)) modules_.resize(static_cast<size_t>(id) + 1);
      if (!m) return std::nullopt;
      modules_[static_cast<size_t>(id)] = *m;
      return m;
    }
    return std::nullopt;
  }

 private:
  std::optional<ModuleFile> Parse(int id, std::string_view text) {
    ts::Tree tree = ts::Parse(PythonGrammar().language, text);
    if (!tree) {
      app_->errors.push_back({id, ParseError{"parsing took too long; file skipped", {1, 1}}});
      return std::nullopt;
    }
    TSNode root = ts_tree_root_node(tree.get());
    if (auto err = ts::FirstError(root, text)) {
      app_->errors.push_back({id, ParseError{err->message, err->pos}});  // as for any Python file
    }
    trees_.push_back(std::move(tree));
    ModuleFile m;
    m.file = id;
    m.src = text;
    m.root = root;
    if (modules_.size() <= static_cast<size_t>(id)) modules_.resize(static_cast<size_t>(id) + 1);
    modules_[static_cast<size_t>(id)] = m;
    return m;
  }

  const cdk::AppInput& in_;
  cdk::App* app_;
  std::string root_, app_dir_, entry_display_dir_;
  std::vector<std::string> dirs_;  // by file: its directory (canonical)
  std::deque<std::string> texts_;  // by file: the text parsed (stable)
  std::vector<ts::Tree> trees_;
  std::vector<ModuleFile> modules_;
  std::map<std::string, int> by_path_;
};

// The CDK library model.
class Cdk final : public Library {
 public:
  Cdk(const cdk::AppInput& in, cdk::App* app, Finder* finder) : in_(in), app_(app), finder_(finder) {}

  // The model's values: an app, a stack, a construct, a node, a document tree
  // ("value", nodes_), an opened file; strings built with them are the model's
  // to join (Role::kValue, Join).
  VId Own(Analyzer& a, std::string_view tag, int ref) { return a.LibraryValue(this, Role::kValue, tag, ref); }
  bool Mine(const Value& x) const { return x.kind == VK::kLibrary && x.owner == this; }

  bool Call(Analyzer& a, const std::string& q, TSNode call, Args& args, VId* result) override {
    *result = kUnknown;
    if (q == "builtins.open" || q == "io.open") {
      *result = Open(a, args);
      return true;
    }
    if (q == "json.dumps" && !args.positional.empty()) {
      // A definition built as a dict and serialized: read as the dict (cdk::JsonString).
      *result = JsonOf(a, args.positional[0], call);
      return true;
    }
    if (q == "json.load" || q == "json.loads") {
      *result = q == "json.load" ? LoadJson(a, args) : LoadJsonText(a, args);
      return true;
    }
    if (q == "importlib.import_module") {
      // A module of the app by a literal name is run as `import` runs it; a
      // name known only at run time is said (SM008, rules/SM008.md).
      const Value* name = args.positional.empty() ? nullptr : &a.V(args.positional[0].v);
      if (name && name->kind == VK::kStr && !name->text.empty() && name->text[0] != '.') {
        int mod = a.LoadModule(a.FileOf(call), name->text, 0);
        if (mod >= 0) {
          Value v;
          v.kind = VK::kModule;
          v.ref = mod;
          *result = a.store_.New(std::move(v));
        }
      } else {
        app_->unread.push_back({a.FileOf(call), cdk::DynamicImport(a.TextOf(call), a.R(call).begin)});
      }
      return true;
    }
    if (q == "dataclasses.field") {
      for (const auto& [k, e] : args.keywords) {
        if (k == "default") *result = e.v;
      }
      return true;
    }
    if (!IsCdkPath(q)) return false;
    CdkName n = SplitName(q);
    if (n.classes.empty() || n.extra) return true;
    std::string module = cdk::ModuleOf(n.module_path);
    SourcePos at = a.R(call).begin;
    int file = a.FileOf(call);
    if (!n.member.empty()) {
      // A static method (`ManagedPolicy.from_aws_managed_policy_name`, `Size.gibibytes`, `InstanceType.of`).
      std::vector<cfn::Node> nodes;
      for (const Ev& e : args.positional) nodes.push_back(ToNode(a, e, file, at, 0));
      if (!args.keywords.empty()) nodes.push_back(KeywordMap(a, args, file, at));
      std::optional<cfn::Node> v = cdk::CallValue(module, n.cls(), n.member, nodes, at);
      if (v) *result = NodeValue(a, std::move(*v), file);
      return true;
    }
    const std::string cls = n.cls();
    if (n.classes.size() > 1 || cls.ends_with("Property")) {  // a struct: its keywords as a map
      *result = Struct(a, args);
      return true;
    }
    if (module == "core" && cls == "App") {
      *result = Own(a, "app", -1);
      return true;
    }
    if (module == "core" && (cls == "Stack" || cls == "NestedStack")) {
      int stack = NewStack(a, args, call);
      *result = Own(a, "stack", stack);
      return true;
    }
    // A principal (`CompositePrincipal(a, b)`) takes principals, not a scope and an id.
    bool principal = module == "iam" && cls.ends_with("Principal");
    bool construct = !principal && (args.positional.size() >= 2 || HasKeyword(args, "scope"));
    // A statement is recorded (add_to_policy names it by index); a PolicyDocument is the
    // shared part's value (CallValue).
    bool statement = module == "iam" && cls == "PolicyStatement";
    if (construct || statement) {
      int index = NewConstruct(a, module, cls, args, call, construct);
      *result = index < 0 ? kUnknown : Own(a, "construct", index);
      return true;
    }
    std::vector<cfn::Node> nodes;
    for (const Ev& e : args.positional) nodes.push_back(ToNode(a, e, file, at, 0));
    if (!args.keywords.empty()) nodes.push_back(KeywordMap(a, args, file, at));
    if (std::optional<cfn::Node> v = cdk::CallValue(module, cls, "", nodes, at)) {
      // `ec2.InstanceType("m4.xlarge")`: the type is its one literal (a fix edits it
      // where the call stands inside a construct's props; docs/cdk.md "Fixes").
      if (module == "ec2" && cls == "InstanceType" && args.positional.size() == 1 && v->is_scalar()) {
        MarkLiteralAnywhere(a, args.positional[0], file, &*v);
      }
      *result = NodeValue(a, std::move(*v), file);
    } else if (args.positional.empty() && !args.keywords.empty()) {
      *result = Struct(a, args);  // `Environment(account=…, region=…)` and other structs
    }
    return true;
  }

  bool Method(Analyzer& a, VId receiver, std::string_view method, TSNode call, Args& args, VId* result) override {
    *result = kUnknown;
    const Value& r = a.store_[receiver];
    if (r.kind == VK::kInstance) {
      if (method == "try_get_context" || method == "tryGetContext") {
        *result = Context(a, args);
        return true;
      }
      if (method == "to_json_string" && !args.positional.empty()) {  // a stack's (Stack.to_json_string)
        *result = JsonOf(a, args.positional[0], call);
        return true;
      }
      return false;
    }
    if (!Mine(r)) return false;
    std::string kind = r.text;
    int ref = r.ref;
    if (kind == "file") {
      // `open("on_start.sh").read()`: a script or template the app reads, inside the scan root.
      if (method == "read" && args.positional.empty()) {
        const auto& [from_file, name] = opened_[static_cast<size_t>(ref)];
        std::string text;
        if (ReadData(from_file, name, &text) && text.size() <= Store::kMaxString) *result = a.store_.Str(text);
      }
      return true;
    }
    if (kind == "node") {
      if (method == "try_get_context" || method == "tryGetContext") {
        *result = Context(a, args);
      } else if (ref >= 0) {
        RecordMethod(a, ref, method, call, args);  // `x.node.add_metadata(…)`: on the construct
      }
      return true;
    }
    if (kind == "construct") {
      RecordMethod(a, ref, method, call, args);
      if (method == "get_att" && !args.positional.empty() && a.store_.Kind(args.positional[0].v) == VK::kStr) {
        *result = AttributeRef(a, ref, a.store_[args.positional[0].v].text, a.FileOf(call));
      } else if (method.starts_with("find_") || method.starts_with("auto_scale")) {
        *result = Own(a, "construct", ref);  // an object of the construct's own (synth.cc reads the chain)
      }
      return true;
    }
    if (kind == "stack" && method == "to_json_string" && !args.positional.empty()) {
      *result = JsonOf(a, args.positional[0], call);
      return true;
    }
    return kind == "app" || kind == "stack" || kind == "file" || kind == "value";
  }

  // `value` serialized to JSON (cdk::JsonString), or unknown.
  VId JsonOf(Analyzer& a, const Ev& value, TSNode call) {
    int file = a.FileOf(call);
    SourcePos at = a.R(call).begin;
    std::optional<cfn::Node> v = cdk::JsonString(ToNode(a, value, file, at, 0), at);
    return v ? NodeValue(a, std::move(*v), file) : kUnknown;
  }

  bool Attribute(Analyzer& a, VId object, std::string_view name, TSNode node, VId* result) override {
    *result = kUnknown;
    const Value& x = a.store_[object];
    if (x.kind == VK::kInstance) {
      if (name != "node") return false;
      *result = Own(a, "node", -1);
      return true;
    }
    if (!Mine(x)) return false;
    std::string kind = x.text;
    int ref = x.ref;
    if (name == "node" && (kind == "app" || kind == "stack" || kind == "construct")) {
      *result = Own(a, "node", kind == "construct" ? ref : -1);
      return true;
    }
    if (kind == "construct") {
      // An L1 construct's prop read back (`model.model_name`) when the app knows it, else an
      // attribute it resolves at deploy time (a name made at run time still links the two).
      auto& props = construct_args_[static_cast<size_t>(ref)];
      for (const auto& [k, e] : props.keywords) {
        VK known = a.store_.Kind(e.v);
        // A string holding an unknown part (`f"cfg-{datetime.now()}"`) is unknown as a name.
        if (known == VK::kLibrary && Mine(a.store_[e.v]) && a.store_[e.v].text == "value" &&
            HoldsUnknown(nodes_[static_cast<size_t>(a.store_[e.v].ref)].second, 0)) {
          known = VK::kUnknown;
        }
        if (k == name && known != VK::kUnknown && known != VK::kOpaque && known != VK::kOneOf) {
          *result = e.v;
          return true;
        }
      }
      *result = AttributeRef(a, ref, std::string(name), a.FileOf(node));
      return true;
    }
    return true;
  }

  // `f"endpoint/{ep.attr_endpoint_name}/variant/A"`: the Fn::Join the CDK renders for a string with tokens.
  bool Join(Analyzer& a, const std::vector<Ev>& pieces, VId* result) override {
    cfn::Node list;
    list.kind = cfn::Node::Kind::kSeq;
    bool token = false, unknown = false;
    auto text = [&](std::string t) {
      if (!list.items.empty() && list.items.back().is_scalar() && list.items.back().quoted &&
          list.items.back().tag.empty()) {
        list.items.back().text += t;
        return;
      }
      cfn::Node s;
      s.kind = cfn::Node::Kind::kScalar;
      s.text = std::move(t);
      s.quoted = true;
      list.items.push_back(std::move(s));
    };
    for (const Ev& e : pieces) {
      const Value& x = a.store_[e.v];
      if (x.kind == VK::kStr || x.kind == VK::kNum) {
        text(x.text);
        continue;
      }
      if (Mine(x) && x.text == "value") {
        const cfn::Node& held = nodes_[static_cast<size_t>(x.ref)].second;
        if (held.is_scalar() && held.tag.empty() && held.text != aws::kUnknownMarker) {
          text(held.text);  // a value the shared part knows (`ManagedPolicy…arn`)
          continue;
        }
        const cfn::Node* inner = held.Get("Fn::Join");
        if (inner && inner->is_seq() && inner->items.size() == 2 && inner->items[1].is_seq()) {
          for (const cfn::Node& part : inner->items[1].items) {
            if (part.is_scalar() && part.quoted && part.tag.empty())
              text(part.text);
            else
              list.items.push_back(part);
          }
        } else {
          list.items.push_back(held);
        }
        token = true;
        continue;
      }
      if (x.kind == VK::kQual && IsCdkPath(x.text)) {
        // `Aws.ACCOUNT_ID`, `Aws.REGION`: what the shared part renders (a pseudo parameter's Ref).
        CdkName name = SplitName(x.text);
        std::optional<cfn::Node> v;
        if (!name.classes.empty() && !name.member.empty() && !name.extra) {
          v = cdk::MemberValue(cdk::ModuleOf(name.module_path), name.cls(), name.member, {});
        }
        if (v && v->is_scalar() && v->tag.empty() && v->text != aws::kUnknownMarker) {
          text(v->text);
        } else if (v) {
          list.items.push_back(std::move(*v));
          token = true;
        } else {
          list.items.push_back(Unknown({}));
          unknown = true;
        }
        continue;
      }
      list.items.push_back(Unknown({}));
      unknown = true;
    }
    // Known text around an unknown part stays: an IAM resource ARN keeps its
    // type (the join is unknown as a value).
    bool texts = std::any_of(list.items.begin(), list.items.end(),
                             [](const cfn::Node& n) { return n.is_scalar() && n.quoted && !n.text.empty(); });
    if (!token && !(unknown && texts)) return false;
    cfn::Node join;
    join.kind = cfn::Node::Kind::kMap;
    cfn::Node args;
    args.kind = cfn::Node::Kind::kSeq;
    cfn::Node empty;
    empty.kind = cfn::Node::Kind::kScalar;
    empty.quoted = true;
    args.items.push_back(std::move(empty));
    args.items.push_back(std::move(list));
    join.entries.emplace_back("Fn::Join", std::move(args));
    join.key_pos.resize(1);
    *result = NodeValue(a, std::move(join), -1);  // placed where it is used
    return true;
  }

  void EnterInstance(Analyzer& a, int instance, const std::string& q, TSNode call, Args& args) override {
    if (!IsCdkPath(q)) return;
    CdkName n = SplitName(q);
    std::string module = cdk::ModuleOf(n.module_path);
    if (module == "core" && (n.cls() == "Stack" || n.cls() == "NestedStack")) {
      if (instance_stack_.count(instance)) return;
      int stack = NewStack(a, args, call);
      instance_stack_[instance] = stack;
      running_.push_back({instance, stack});
      return;
    }
    if (n.cls() == "Construct" && !args.positional.empty() && !instance_stack_.count(instance)) {
      instance_stack_[instance] = StackOf(a, args.positional[0].v);
    }
  }

  void LeaveInstance(Analyzer&, int instance) override {
    if (!running_.empty() && running_.back().first == instance) running_.pop_back();
  }

 private:
  static bool HasKeyword(const Args& args, std::string_view k) {
    return std::any_of(args.keywords.begin(), args.keywords.end(), [&](const auto& kv) { return kv.first == k; });
  }

  static const Ev* Arg(const Args& args, size_t position, std::initializer_list<std::string_view> names) {
    for (const auto& [k, e] : args.keywords) {
      for (std::string_view n : names) {
        if (k == n) return &e;
      }
    }
    return position < args.positional.size() ? &args.positional[position] : nullptr;
  }

  int NewStack(Analyzer& a, const Args& args, TSNode call) {
    cdk::Stack s;
    const Ev* id = Arg(args, 1, {"id", "construct_id"});
    if (id && a.store_.Kind(id->v) == VK::kStr) s.id = a.store_[id->v].text;
    s.file = a.FileOf(call);
    s.call = a.R(call);
    app_->stacks.push_back(std::move(s));
    return static_cast<int>(app_->stacks.size()) - 1;
  }

  // The stack a construct created in `scope` belongs to.
  int StackOf(Analyzer& a, VId scope) {
    const Value& s = a.store_[scope];
    if (Mine(s) && s.text == "stack") return s.ref;
    if (Mine(s) && s.text == "construct") return app_->constructs[static_cast<size_t>(s.ref)].stack;
    if (s.kind == VK::kInstance) {
      auto it = instance_stack_.find(s.ref);
      if (it != instance_stack_.end()) return it->second;
    }
    return running_.empty() ? -1 : running_.back().second;
  }

  int NewConstruct(Analyzer& a, const std::string& module, const std::string& cls, const Args& args, TSNode call,
                   bool scoped) {
    if (app_->constructs.size() >= kMaxConstructs) {
      a.Halt(call, "it creates more than 10,000 constructs");
      return -1;
    }
    cdk::Construct c;
    c.module = module;
    c.cls = cls;
    c.conditions = a.branch_conds_;
    c.file = a.FileOf(call);
    c.call = a.R(call);
    SourcePos at = c.call.begin;
    if (scoped) {
      const Ev* id = Arg(args, 1, {"id"});
      if (id && a.store_.Kind(id->v) == VK::kStr) c.id = a.store_[id->v].text;
      const Ev* scope = Arg(args, 0, {"scope"});
      c.stack = scope ? StackOf(a, scope->v) : (running_.empty() ? -1 : running_.back().second);
    } else {
      c.stack = running_.empty() ? -1 : running_.back().second;
    }
    // Props: the keywords (a third positional props object is read like them).
    Args props;
    if (scoped && args.positional.size() >= 3) {
      const Value& p = a.store_[args.positional[2].v];
      if (p.kind == VK::kDict) {
        for (const Entry& e : p.entries) props.keywords.emplace_back(e.key, e.value);
      }
    }
    for (const auto& [k, e] : args.keywords) {
      if (scoped && (k == "scope" || k == "id")) continue;
      props.keywords.emplace_back(k, e);
    }
    // A scalar written as one literal token inside the call keeps the token's range:
    // a fix may edit it there (docs/cdk.md "Fixes").
    literal_file_ = c.file;
    literal_begin_ = ts_node_start_byte(call);
    literal_end_ = ts_node_end_byte(call);
    if (!props.keywords.empty()) c.props = KeywordMap(a, props, c.file, at);
    literal_file_ = -1;
    app_->constructs.push_back(std::move(c));
    construct_args_.push_back(std::move(props));
    return static_cast<int>(app_->constructs.size()) - 1;
  }

  void RecordMethod(Analyzer& a, int construct, std::string_view method, TSNode call, const Args& args) {
    if (app_->methods.size() >= kMaxConstructs * 4) {
      a.Halt(call, "it calls more than 40,000 methods on constructs");
      return;
    }
    cdk::MethodCall m;
    m.construct = construct;
    m.method = std::string(method);
    m.file = a.FileOf(call);
    m.call = a.R(call);
    for (const Ev& e : args.positional) m.args.push_back(ToNode(a, e, m.file, m.call.begin, 0));
    if (!args.keywords.empty()) m.args.push_back(KeywordMap(a, args, m.file, m.call.begin));
    app_->methods.push_back(std::move(m));
  }

  VId AttributeRef(Analyzer& a, int construct, const std::string& attribute, int file) {
    cfn::Node n;
    n.kind = cfn::Node::Kind::kMap;
    n.tag = std::string(cdk::kAttributeTag);
    cfn::Node c;
    c.kind = cfn::Node::Kind::kScalar;
    c.text = std::to_string(construct);
    cfn::Node at;
    at.kind = cfn::Node::Kind::kScalar;
    at.text = attribute;
    at.quoted = true;
    n.entries.emplace_back("construct", std::move(c));
    n.entries.emplace_back("attribute", std::move(at));
    n.key_pos.resize(2);
    return NodeValue(a, std::move(n), file);
  }

  // A value the model holds as a document tree (from CallValue, the context, a JSON file, an attribute).
  VId NodeValue(Analyzer& a, cfn::Node n, int file) {
    nodes_.push_back({file, std::move(n)});
    return Own(a, "value", static_cast<int>(nodes_.size()) - 1);
  }

  VId Struct(Analyzer& a, const Args& args) {
    Value d;
    d.kind = VK::kDict;
    d.complete = !args.unknown_spread;
    for (const auto& [k, e] : args.keywords) d.entries.push_back({k, e});
    return a.store_.New(std::move(d));
  }

  // ---- values to document trees ---------------------------------------------------

  // Takes the token range off what does not lie inside the construct call whose props
  // are being converted (or off everything, outside such a conversion).
  void KeepLiteralsWithin(cfn::Node* n) const {
    if (n->end.valid() && (literal_file_ < 0 || n->offset < literal_begin_ || n->end_offset > literal_end_)) {
      n->end = {};
      n->offset = n->end_offset = 0;
    }
    for (auto& e : n->entries) KeepLiteralsWithin(&e.second);
    for (auto& i : n->items) KeepLiteralsWithin(&i);
  }

  static bool HoldsUnknown(const cfn::Node& n, int depth) {
    if (n.is_scalar()) return n.text == aws::kUnknownMarker;
    if (depth > 64) return true;
    for (const cfn::Node& i : n.items) {
      if (HoldsUnknown(i, depth + 1)) return true;
    }
    for (const auto& e : n.entries) {
      if (HoldsUnknown(e.second, depth + 1)) return true;
    }
    return false;
  }

  static cfn::Node Unknown(SourcePos at) {
    cfn::Node n;
    n.kind = cfn::Node::Kind::kScalar;
    n.text = std::string(aws::kUnknownMarker);
    n.pos = at;
    return n;
  }

  cfn::Node KeywordMap(Analyzer& a, const Args& args, int file, SourcePos at) {
    cfn::Node m;
    m.kind = cfn::Node::Kind::kMap;
    m.pos = at;
    for (const auto& [k, e] : args.keywords) {
      cfn::Node v = ToNode(a, e, file, at, 1);
      m.key_pos.push_back(v.pos);
      m.entries.emplace_back(k, std::move(v));
    }
    return m;
  }

  // `e` as the tree a prop holds; positions where it is written when that is in
  // `file`, else `fallback` (the use in this file, or the call).
  static long Count(const cfn::Node& n, long limit) {
    long c = 1;
    for (const auto& e : n.entries) {
      if (c > limit) return c;
      c += Count(e.second, limit - c);
    }
    for (const auto& i : n.items) {
      if (c > limit) return c;
      c += Count(i, limit - c);
    }
    return c;
  }

  // Values shared by reference can stand for trees far larger than the code
  // (`d = {"a": d, "b": d}` in a loop): the trees the app's records hold are bounded.
  bool Spend(Analyzer& a, long nodes, TSNode at) {
    node_budget_ -= nodes;
    if (node_budget_ >= 0) return true;
    a.Halt(at, "the values of its constructs expand to more than 200,000 nodes");
    return false;
  }

  // Gives `n` the range of the token `e` is written as, when that is one string,
  // number or boolean literal inside the construct call whose props are being
  // converted: the only place a fix edits a CDK value.
  void MarkLiteral(Analyzer& a, const Ev& e, int file, cfn::Node* n) {
    if (literal_file_ != file || ts_node_is_null(e.at)) return;
    uint32_t begin = ts_node_start_byte(e.at), end = ts_node_end_byte(e.at);
    if (begin < literal_begin_ || end > literal_end_) return;
    MarkLiteralAnywhere(a, e, file, n);
  }

  // The same wherever the token stands (a value the CDK computes from it, checked
  // against the construct call when it is used: KeepLiteralsWithin).
  static void MarkLiteralAnywhere(Analyzer& a, const Ev& e, int file, cfn::Node* n) {
    if (ts_node_is_null(e.at) || a.FileOf(e.at) != file) return;
    uint32_t begin = ts_node_start_byte(e.at), end = ts_node_end_byte(e.at);
    if (end <= begin) return;
    switch (a.g_.Kind(e.at)) {
      case N::kString:
        for (TSNode c : a.Kids(e.at)) {
          if (a.g_.Kind(c) == N::kInterpolation) return;
        }
        break;
      case N::kInteger:
      case N::kFloat:
      case N::kTrue:
      case N::kFalse:
        break;
      default:
        return;
    }
    n->end = a.R(e.at).end;
    n->offset = begin;
    n->end_offset = end;
  }

  cfn::Node ToNode(Analyzer& a, const Ev& e, int file, SourcePos fallback, int depth) {
    SourcePos at = fallback;
    if (!ts_node_is_null(e.at) && a.FileOf(e.at) == file) at = a.R(e.at).begin;
    if (depth > kMaxNodeDepth || !Spend(a, 1, e.at)) return Unknown(at);
    const Value& x = a.store_[e.v];
    cfn::Node n;
    n.pos = at;
    switch (x.kind) {
      case VK::kStr:
        n.kind = cfn::Node::Kind::kScalar;
        n.text = x.text;
        n.quoted = true;
        MarkLiteral(a, e, file, &n);
        return n;
      case VK::kNum:
      case VK::kBool:
        n.kind = cfn::Node::Kind::kScalar;
        n.text = x.text;
        MarkLiteral(a, e, file, &n);
        return n;
      case VK::kNone:
        return n;
      case VK::kDict:
      case VK::kRecord: {
        if (!x.complete && x.entries.empty()) return Unknown(at);
        n.kind = cfn::Node::Kind::kMap;
        std::vector<Entry> entries = x.entries;
        for (const Entry& en : entries) {
          cfn::Node v = ToNode(a, en.value, file, at, depth + 1);
          n.key_pos.push_back(v.pos);
          n.entries.emplace_back(en.key, std::move(v));
        }
        return n;
      }
      case VK::kList: {
        if (!x.complete && x.items.empty()) return Unknown(at);
        n.kind = cfn::Node::Kind::kSeq;
        std::vector<Ev> items = x.items;
        for (const Ev& item : items) n.items.push_back(ToNode(a, item, file, at, depth + 1));
        return n;
      }
      case VK::kLibrary: {
        if (Mine(x) && x.text == "construct") {
          n.kind = cfn::Node::Kind::kScalar;
          n.tag = std::string(cdk::kConstructTag);
          n.text = std::to_string(x.ref);
          return n;
        }
        if (Mine(x) && x.text == "value") {
          const auto& [from, held] = nodes_[static_cast<size_t>(x.ref)];
          if (!Spend(a, Count(held, node_budget_ + 1), e.at)) return Unknown(at);
          cfn::Node copy = held;
          if (from != file || copy.pos.line <= 0) cfn::Relocate(&copy, at);
          KeepLiteralsWithin(&copy);
          return copy;
        }
        return Unknown(at);
      }
      case VK::kQual: {
        // An enum member or constant of a CDK class (`ec2.InstanceClass.P3`).
        if (!IsCdkPath(x.text)) return Unknown(at);
        CdkName name = SplitName(x.text);
        if (name.classes.empty() || name.member.empty() || name.extra) return Unknown(at);
        std::optional<cfn::Node> v = cdk::MemberValue(cdk::ModuleOf(name.module_path), name.cls(), name.member, at);
        return v ? *v : Unknown(at);
      }
      case VK::kOneOf: {
        // Alternatives that agree (scalars) are that value; the two of an `if`/`else`
        // (conditions "C is true", "C is false") are `Fn::If` [C, then, else]; else unknown.
        std::vector<Alt> alts = x.alts;
        if (alts.empty()) return Unknown(at);
        bool agree = a.store_[alts[0].value.v].scalar();
        for (const Alt& alt : alts) {
          agree = agree && Equal(a.store_, alt.value.v, alts[0].value.v).value_or(false);
        }
        if (agree) return ToNode(a, Ev{alts[0].value.v, e.at}, file, fallback, depth + 1);
        constexpr std::string_view kTrue = " is true", kFalse = " is false";
        if (alts.size() != 2 || !alts[0].cond.ends_with(kTrue) ||
            alts[1].cond != alts[0].cond.substr(0, alts[0].cond.size() - kTrue.size()).append(kFalse)) {
          return Unknown(at);
        }
        std::string cond = alts[0].cond.substr(0, alts[0].cond.size() - kTrue.size());
        // A literal of one alternative is no literal of the value (docs/cdk.md "Fixes").
        int file_before = std::exchange(literal_file_, -1);
        cfn::Node then = ToNode(a, alts[0].value, file, at, depth + 1);
        cfn::Node otherwise = ToNode(a, alts[1].value, file, at, depth + 1);
        literal_file_ = file_before;
        return cdk::Alternatives(cond, std::move(then), std::move(otherwise), at);
      }
      default:
        return Unknown(at);
    }
  }

  // ---- document trees to values (JSON files, the context) -----------------------------

  VId FromNode(Analyzer& a, const cfn::Node& n, int depth) {
    if (depth > kMaxNodeDepth) return kUnknown;
    switch (n.kind) {
      case cfn::Node::Kind::kNull:
        return a.store_.None();
      case cfn::Node::Kind::kScalar: {
        if (n.quoted) return a.store_.Str(n.text);
        if (n.text == "true" || n.text == "false") return a.store_.Bool(n.text == "true");
        if (n.text == "null" || n.text == "~") return a.store_.None();
        char* end = nullptr;
        std::strtod(n.text.c_str(), &end);
        if (!n.text.empty() && end && *end == '\0') return a.store_.Num(n.text);
        return a.store_.Str(n.text);
      }
      case cfn::Node::Kind::kMap: {
        Value d;
        d.kind = VK::kDict;
        for (const auto& e : n.entries) {
          if (d.entries.size() >= Store::kMaxItems) {
            d.complete = false;
            break;
          }
          d.entries.push_back({e.first, Ev{FromNode(a, e.second, depth + 1), {}}});
        }
        return a.store_.New(std::move(d));
      }
      case cfn::Node::Kind::kSeq: {
        Value l;
        l.kind = VK::kList;
        for (const auto& item : n.items) {
          if (l.items.size() >= Store::kMaxItems) {
            l.complete = false;
            break;
          }
          l.items.push_back(Ev{FromNode(a, item, depth + 1), {}});
        }
        return a.store_.New(std::move(l));
      }
    }
    return kUnknown;
  }

  VId Context(Analyzer& a, const Args& args) {
    if (args.positional.empty() || a.store_.Kind(args.positional[0].v) != VK::kStr) return kUnknown;
    if (!in_.context.is_map()) return a.store_.None();
    const cfn::Node* v = in_.context.Get(a.store_[args.positional[0].v].text);
    return v ? FromNode(a, *v, 0) : a.store_.None();  // try_get_context answers None for a missing key
  }

  VId Open(Analyzer& a, const Args& args) {
    if (args.positional.empty() || a.store_.Kind(args.positional[0].v) != VK::kStr) return kUnknown;
    opened_.push_back({a.cur_file_, a.store_[args.positional[0].v].text});
    return Own(a, "file", static_cast<int>(opened_.size()) - 1);
  }

  VId LoadJson(Analyzer& a, const Args& args) {
    if (args.positional.empty()) return kUnknown;
    const Value& f = a.store_[args.positional[0].v];
    if (!Mine(f) || f.text != "file") return kUnknown;
    const auto& [from_file, name] = opened_[static_cast<size_t>(f.ref)];
    std::string text;
    if (!ReadData(from_file, name, &text)) return kUnknown;
    return ParseJson(a, text);
  }

  VId LoadJsonText(Analyzer& a, const Args& args) {
    if (args.positional.empty() || a.store_.Kind(args.positional[0].v) != VK::kStr) return kUnknown;
    std::string text = a.store_[args.positional[0].v].text;
    return ParseJson(a, text);
  }

  VId ParseJson(Analyzer& a, const std::string& text) {
    cfn::Node doc;
    std::vector<cfn::LoadError> errors;
    cfn::LoadLimits limits;
    limits.max_nodes = 100'000;
    limits.max_bytes = 16u << 20;
    if (!cfn::LoadDocument(text, 0, limits, &doc, &errors)) return kUnknown;
    return FromNode(a, doc, 0);
  }

  // A data file the app opens: relative to the process directory (the app's), else
  // to the file that opens it; never outside the scan root.
  bool ReadData(int from_file, const std::string& name, std::string* out) {
    const FileSource& files = *in_.opts->files;
    std::vector<fs::path> candidates;
    fs::path p(name);
    if (p.is_absolute()) {
      candidates.push_back(p);
    } else {
      candidates.push_back(fs::path(finder_->app_dir()) / p);
      candidates.push_back(fs::path(finder_->DirOf(from_file)) / p);
    }
    for (const fs::path& c : candidates) {
      if (!files.IsRegularFile(c.string())) continue;
      std::optional<std::string> canonical = files.Canonical(c.string());
      if (!canonical || !Within(*canonical, finder_->root())) return false;
      auto cached = data_.find(*canonical);
      if (cached != data_.end()) {
        *out = cached->second;
        return true;
      }
      std::string error;
      if (!files.Read(*canonical, kMaxFileBytes, out, &error)) return false;
      data_[*canonical] = *out;
      return true;
    }
    return false;
  }

  const cdk::AppInput& in_;
  cdk::App* app_;
  Finder* finder_;
  std::vector<Args> construct_args_;                 // by construct: its props as evaluated
  std::vector<std::pair<int, cfn::Node>> nodes_;     // "value" foreigns: file of origin, tree
  std::vector<std::pair<int, std::string>> opened_;  // "file" foreigns: the opening file, the name
  std::map<std::string, std::string> data_;          // data files read, by canonical path
  long node_budget_ = 200'000;                       // nodes the records may still hold
  // The construct call whose props are being converted (file, byte range); -1: none.
  int literal_file_ = -1;
  uint32_t literal_begin_ = 0, literal_end_ = 0;
  std::map<int, int> instance_stack_;         // program instance -> its stack
  std::vector<std::pair<int, int>> running_;  // stack constructors running: instance, stack
};

}  // namespace
}  // namespace py

namespace cdk {

App EvaluatePythonApp(const AppInput& in) {
  App app;
  app.files.push_back(in.entry);
  if (!in.opts) return app;
  if (in.entry.text.size() > (8u << 20)) {
    app.errors.push_back({0, ParseError{"file larger than 8 MiB; not parsed", {1, 1}}});
    return app;
  }
  py::Finder finder(in, &app);
  std::optional<py::ModuleFile> entry = finder.Entry();
  if (!entry) return app;
  py::Cdk model(in, &app, &finder);
  FileResult scratch;
  py::Analyzer analyzer(in.entry, entry->src, nullptr, &scratch);
  py::SdkModel sdk(analyzer);
  analyzer.RunProgram(entry->root, &finder, {&model, &sdk});
  for (auto& b : analyzer.program_bounds_) app.budgets.push_back(std::move(b));
  return app;
}

}  // namespace cdk
}  // namespace sagelint
