// Function calls of the Terraform evaluator (eval.h): arguments (with
// `...` expansion), jsondecode/yamldecode, the functions that read files of
// the module (file, filebase64, fileexists, templatefile), and the built-ins
// of functions.cc.

#include "parsers/common/base64.h"
#include "parsers/terraform/eval.h"
#include "parsers/terraform/eval_shared.h"
#include "parsers/terraform/functions.h"

namespace sagelint::tf {
namespace {

namespace fs = std::filesystem;
using K = TfVal::Kind;

constexpr size_t kMaxReadBytes = 1u << 20;  // file(), templatefile()

}  // namespace

TfVal Module::Function(TSNode n, const HclFile& f, int depth) {
  SourceRange at = Range(n);
  std::string name(ts::Text(ts_node_named_child(n, 0), f.text));
  std::vector<TfVal> args;
  bool spread = false;
  if (ts_node_named_child_count(n) > 1) {
    TSNode list = ts_node_named_child(n, 1);
    uint32_t count = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(list, i);
      if (Type(c) == "expression") args.push_back(Eval(c, f, depth + 1));
      if (Type(c) == "ellipsis") spread = true;
    }
  }
  if (spread) {
    // f(a, list...): the list's elements are the last arguments.
    if (args.empty() || args.back().kind != K::kList) return Unknown(at);
    TfVal last = std::move(args.back());
    args.pop_back();
    for (TfVal& i : last.items) args.push_back(std::move(i));
  }
  if (name == "file" || name == "filebase64" || name == "templatefile" || name == "fileexists") {
    return FileFunction(name, args, at, f);
  }
  if (name == "jsondecode" || name == "yamldecode") {
    if (args.empty() || !args[0].known()) return args.empty() || !args[0].error ? Unknown(at) : args[0];
    cfn::Node doc;
    std::vector<cfn::LoadError> errors;
    if (!cfn::LoadDocument(args[0].text, 0, cfn::LoadLimits{}, &doc, &errors)) return MakeError(at, name + " failed");
    TfVal decoded = Rehome(JsonValue(doc, at, 0), at);
    if (!unit_.Charge(SizeOf(decoded, kMaxValueNodes), at)) return Unknown(at);
    return decoded;
  }
  CallCost cost;
  std::optional<TfVal> r = CallBuiltin(name, args, at, &cost);
  if (cost.too_large) unit_.TooLarge(at);
  // A comparison costs about a sixty-fourth of an evaluation step.
  if (cost.work >= 64 && !unit_.Step(cost.work / 64)) return Unknown(at);
  // What a call returns is a new value, or a copy of its arguments' parts.
  if (r && !unit_.Charge(SizeOf(*r, kMaxValueNodes), at)) return Unknown(at);
  if (r) {
    // An encoding of one value was written where that value was (pre-commit attribution).
    static const std::set<std::string> kSameValue = {"base64encode", "base64decode", "trimspace", "lower",     "upper",
                                                     "tostring",     "tonumber",     "tobool",    "jsonencode"};
    if (kSameValue.count(name) && args.size() == 1 && r->src_path.empty()) {
      r->src_path = args[0].src_path;
      r->src = args[0].src;
    }
    return *r;
  }
  for (const TfVal& a : args) {
    if (a.error) return MakeError(at, name + ": an argument failed");
  }
  return Unknown(at);
}

TfVal Module::FileFunction(const std::string& name, const std::vector<TfVal>& args, SourceRange at, const HclFile& f) {
  if (args.empty() || !args[0].known()) return args.empty() || !args[0].error ? Unknown(at) : args[0];
  std::string content, shown;
  if (name == "fileexists") {
    fs::path p = args[0].text;
    if (p.is_relative()) p = fs::path(f.abs).parent_path() / p;
    auto inside = unit_.Inside(p);
    if (!inside) return Unknown(at);
    return MakeKnown(K::kBool, unit_.opts().files->IsRegularFile(inside->string()) ? "true" : "false", at);
  }
  if (!ReadModuleFile(args[0].text, f, &content, &shown)) return Unknown(at);
  if (name == "templatefile") {
    TfVal out = RenderTemplate(content, args.size() > 1 ? &args[1] : nullptr, at);
    if (!unit_.Charge(SizeOf(out), at)) return Unknown(at);
    if (out.known()) out.origin = "file " + shown;
    return out;
  }
  if (name == "filebase64") content = Base64Encode(content);
  if (!unit_.Charge({1, content.size()}, at)) return Unknown(at);
  return MakeKnown(K::kStr, content, at, "file " + shown);
}

// ${name} placeholders filled from `vars` ($${ is a literal ${); directives are not evaluated.
TfVal Module::RenderTemplate(const std::string& content, const TfVal* vars, SourceRange at) {
  std::string out;
  for (size_t i = 0; i < content.size();) {
    if (content.compare(i, 3, "$${") == 0 || content.compare(i, 3, "%%{") == 0) {
      out += content.substr(i + 1, 2);
      i += 3;
    } else if (content.compare(i, 2, "${") == 0) {
      size_t close = content.find('}', i + 2);
      if (close == std::string::npos) return Unknown(at);
      std::string key = content.substr(i + 2, close - i - 2);
      key.erase(0, key.find_first_not_of(' '));
      key.erase(key.find_last_not_of(' ') + 1);
      const TfVal* x = vars && vars->kind == K::kMap ? vars->Get(key) : nullptr;
      if (!x || !x->known()) return Unknown(at);
      out += x->text;
      if (out.size() > kMaxValueBytes) {
        unit_.TooLarge(at);
        return Unknown(at);
      }
      i = close + 1;
    } else if (content.compare(i, 2, "%{") == 0) {
      return Unknown(at);
    } else {
      out += content[i++];
    }
  }
  return MakeKnown(K::kStr, out, at);
}

// A file a function reads: relative paths from the directory of the file
// that names it (paths usually start with path.module), and never outside the scan root.
bool Module::ReadModuleFile(const std::string& path, const HclFile& f, std::string* out, std::string* shown) {
  fs::path p = path;
  if (p.is_relative()) p = fs::path(f.abs).parent_path() / p;
  auto inside = unit_.Inside(p);
  if (!inside) return false;
  *shown = unit_.RootRelative(*inside);
  return ReadLimited(*unit_.opts().files, *inside, kMaxReadBytes, out);
}

}  // namespace sagelint::tf
