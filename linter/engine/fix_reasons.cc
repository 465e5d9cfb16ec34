#include "linter/engine/fix_reasons.h"

#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "linter/engine/front_ends.h"
#include "linter/model/rule.h"
#include "parsers/cdk/front_end.h"

namespace sagelint {
namespace {

// The 1-based line of the byte at `offset`.
int LineAt(std::string_view text, size_t offset) { return PositionOf(text, offset).line; }

// A quote as a Python file or a notebook's JSON stores it: ' " or \".
// Every repetition in the expressions below is bounded: std::regex matches
// by recursion, one level per repeated character, so an unbounded run over a
// long literal of a hostile file would exhaust the stack.
constexpr const char* kQuote = R"((?:\\?["']))";

// The Neo family an instance type belongs to: ml.p3.2xlarge → ml_p3.
std::string NeoFamily(std::string_view type) {
  size_t first = type.find('.');
  size_t second = first == std::string_view::npos ? first : type.find('.', first + 1);
  if (second == std::string_view::npos) return {};
  std::string family(type.substr(0, second));
  family[first] = '_';
  return family;
}

// Where `text` compiles a model with Neo: the family named (empty when it is
// not a literal) and the line. The first such place for `family`, else the
// first whose family is not written literally.
struct Compile {
  std::string family;
  int line = 0;
};
std::optional<Compile> CompiledFor(const std::string& text, const std::string& family) {
  static const std::regex kTarget(std::string(R"((target_instance_family|TargetDevice)\\?["']?\s{0,16}[=:]\s{0,16})") +
                                  "(" + kQuote + R"(([A-Za-z0-9_]{1,64})\\?["'])?)");
  std::optional<Compile> unknown;
  // The expression is matched by backtracking at every offset of the file: a
  // file that names neither word (nearly every one) is not searched.
  if (text.find("target_instance_family") == std::string::npos && text.find("TargetDevice") == std::string::npos) {
    return unknown;
  }
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kTarget); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    Compile c{m[3].matched ? m[3].str() : std::string(), LineAt(text, static_cast<size_t>(m.position(0)))};
    if (c.family == family) return c;
    if (c.family.empty() && !unknown) unknown = c;
  }
  return unknown;
}

// The text of the finding's workload (its call or resource) in `text`.
std::string_view ResourceText(std::string_view text, const Finding& f) {
  std::optional<size_t> b = OffsetOf(text, f.resource_range.begin), e = OffsetOf(text, f.resource_range.end);
  if (!b || !e || *e <= *b) return {};
  return text.substr(*b, *e - *b);
}

// The literal values of `name=` (a keyword argument) in `text`.
std::vector<std::string> KeywordLiterals(std::string_view text, std::string_view name) {
  // A match starts where the name does: the expression is tried at each
  // occurrence of it (in order, each after the last match), not at every
  // offset of the file, and each expression is compiled once.
  static std::mutex mu;
  static std::map<std::string, std::regex, std::less<>> compiled;
  const std::regex* re = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = compiled.find(name);
    if (it == compiled.end()) {
      std::regex made(std::string(name) + R"(\s{0,16}=\s{0,16})" + kQuote + R"(([^"'\\\n]{1,1024})\\?["'])");
      it = compiled.emplace(std::string(name), std::move(made)).first;
    }
    re = &it->second;  // a map's element stays where it is
  }
  std::vector<std::string> out;
  std::cmatch m;
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    if (!std::regex_search(text.data() + at, text.data() + text.size(), m, *re,
                           std::regex_constants::match_continuous)) {
      continue;
    }
    out.push_back(m[1].str());
    at += static_cast<size_t>(m.length(0)) - 1;  // the next match begins after this one
  }
  return out;
}

// Where a Python file reads PipeModeDataset: its line, 0 when it does not.
// (PipeModeDataset, or ML-IO's SageMakerPipe).
int PipeModeDatasetLine(std::string_view text) {
  size_t at = text.find("PipeModeDataset");
  if (at == std::string_view::npos) at = text.find("SageMakerPipe");
  return at == std::string_view::npos ? 0 : LineAt(text, at);
}

// What the rule's registry row says the engine checks before keeping its fix.
FixCaveat CaveatOf(std::string_view rule) {
  const RuleInfo* r = FindRule(rule);
  return r ? r->fix.caveat : FixCaveat::kNone;
}

// The reason an instance-type change of `f` would break it, if it would.
std::string NeoRefusal(const Finding& f, const std::string& text) {
  const FixChange* change = nullptr;
  for (const FixChange& c : f.fix->changes) {
    if (c.op == FixChange::Op::kReplace) change = &c;
  }
  if (!change) return {};
  std::string family = NeoFamily(change->text);
  std::optional<Compile> c = CompiledFor(text, family);
  if (!c) return {};
  std::string where = " (line " + std::to_string(c->line) + ")";
  if (c->family.empty()) {
    return "the file compiles a model with Neo for a family it does not write literally" + where +
           ": a compiled model runs only on the family it was compiled for, so its instance type is changed by hand, "
           "with a new compilation";
  }
  return "the model is compiled with Neo for " + c->family + where + ": the compiled artifact runs only on " +
         c->family + " instances, so " + change->text + " is changed by hand, with a new compilation";
}

// The reason SM302's switch to FastFile would break `f`'s script, if it would.
std::string PipeRefusal(const Finding& f, const std::string& text, const FileSource& files) {
  if (int line = PipeModeDatasetLine(text)) {
    return f.path + " reads PipeModeDataset (line " + std::to_string(line) +
           "), which reads only Pipe-mode channels: the input mode stays Pipe until it reads files";
  }
  std::string_view call = ResourceText(text, f);
  // The SDK's own Estimator without an entry point runs its image's program,
  // which reads the channel as a Pipe stream today.
  if (f.resource.starts_with("estimator ") && call.find("entry_point") == std::string_view::npos) {
    return "the estimator runs its image's own program (it has no entry point), which reads the channel as a Pipe "
           "stream today; whether it also reads files is not in the code, so the switch to FastFile is left to the "
           "author";
  }
  std::vector<std::string> entries = KeywordLiterals(call, "entry_point");
  // An entry point named by a variable: the literals assigned to it.
  static const std::regex kNamed(R"(entry_point\s{0,16}=\s{0,16}([A-Za-z_][A-Za-z0-9_]{0,127}))");
  std::cmatch named;
  if (entries.empty() && call.find("entry_point") != std::string_view::npos &&
      std::regex_search(call.data(), call.data() + call.size(), named, kNamed)) {
    std::regex assigned("(?:^|[^A-Za-z0-9_.])" + named[1].str() + R"(\s{0,16}=\s{0,16})" + kQuote +
                        R"(([^"'\\\n]{1,1024})\\?["'])");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), assigned); it != std::sregex_iterator(); ++it) {
      entries.push_back((*it)[1].str());
    }
  }
  std::vector<std::string> dirs = KeywordLiterals(call, "source_dir");
  if (entries.empty()) entries = KeywordLiterals(text, "entry_point");  // the call passes it on: any of the file's
  if (dirs.empty()) dirs = KeywordLiterals(text, "source_dir");
  dirs.push_back("");
  std::string base = DirOf(f.path);
  if (!base.empty() && base != "/") base += '/';
  for (const std::string& entry : entries) {
    for (const std::string& dir : dirs) {
      if (dir.find("://") != std::string::npos) continue;  // an S3 or git source: not in the repository
      std::string path = base + (dir.empty() ? "" : dir + "/") + entry;
      std::string script, why;
      if (!files.Read(path, kMaxSourceBytes, &script, &why)) continue;
      if (int line = PipeModeDatasetLine(script)) {
        return "the entry point " + path + " reads PipeModeDataset (line " + std::to_string(line) +
               "), which reads only Pipe-mode channels: the input mode stays Pipe until the script reads files";
      }
      break;
    }
  }
  return {};
}

}  // namespace

void RefuseBreakingFixes(std::vector<Finding>& findings, const FileSource& files) {
  std::map<std::string, std::optional<std::string>> texts;
  auto text_of = [&](const std::string& path) -> const std::string* {
    auto it = texts.find(path);
    if (it == texts.end()) {
      std::string text, why;
      bool ok = files.Read(path, kMaxSourceBytes, &text, &why);
      it = texts.emplace(path, ok ? std::optional<std::string>(std::move(text)) : std::nullopt).first;
    }
    return it->second ? &*it->second : nullptr;
  };
  for (Finding& f : findings) {
    if (f.format == Format::kCdk) {
      // A Step Functions training task cannot take Spot at all; a value that is no
      // literal at the construct's props says where it comes from (docs/cdk.md "Fixes").
      const std::string* text = text_of(f.path);
      std::string why;
      if (text && CaveatOf(f.rule) == FixCaveat::kStepFunctionsTask)
        why = CdkTaskSpotReason(f.path, *text, f.resource_range.begin);
      if (text && !f.fix && f.fix_unavailable.starts_with("the value is computed")) {
        why = CdkValueReason(f.path, *text, f.range.begin);
      }
      if (!why.empty()) {
        f.fix.reset();
        f.fix_unavailable = std::move(why);
      }
      continue;
    }
    if (!f.fix || (f.format != Format::kPython && f.format != Format::kNotebook)) continue;
    const std::string* text = text_of(f.path);
    if (!text) continue;
    std::string why;
    FixCaveat caveat = CaveatOf(f.rule);
    if (caveat == FixCaveat::kNeoCompiled) why = NeoRefusal(f, *text);
    if (caveat == FixCaveat::kPipeModeReader) why = PipeRefusal(f, *text, files);
    if (why.empty()) continue;
    f.fix.reset();
    f.fix_unavailable = std::move(why);
  }
}

void ExplainMissingFixes(std::vector<Finding>& findings) {
  for (Finding& f : findings) {
    if (f.fix || !f.fix_unavailable.empty()) continue;
    // Why a rule without a fix has none (README "Fixes"): its registry row says.
    const RuleInfo* rule = FindRule(f.rule);
    if (rule && !rule->fix.none_because.empty()) {
      f.fix_unavailable = rule->fix.none_because;
    } else if (!RuleFix(f.rule)) {
      f.fix_unavailable = f.rule + " has no automatic fix";
    } else if (const FrontEnd& fe = FrontEndOf(f.format); !fe.Edits(f.path)) {
      f.fix_unavailable = fe.not_edited;
    } else {
      f.fix_unavailable = "the value is not written as one literal of this workload that sagelint can edit";
    }
  }
}

}  // namespace sagelint
