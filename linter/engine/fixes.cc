#include "linter/engine/fixes.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "linter/base/files.h"
#include "linter/engine/front_ends.h"

namespace sagelint {
namespace {

// The texts of the files fixes touch, each read once.
class Texts {
 public:
  explicit Texts(const FileSource& files) : files_(files) {}
  const std::string* Get(const std::string& path) {
    auto it = texts_.find(path);
    if (it == texts_.end()) {
      std::string text, why;
      std::optional<std::string> read;
      if (files_.Read(path, kMaxSourceBytes, &text, &why)) read = std::move(text);
      it = texts_.emplace(path, std::move(read)).first;
    }
    return it->second ? &*it->second : nullptr;
  }

 private:
  const FileSource& files_;
  std::map<std::string, std::optional<std::string>> texts_;
};

// The front end that reads `path` with this content.
const FrontEnd* FrontEndFor(const std::string& path, std::string_view text) {
  const FrontEnd* first = FrontEndForPath(path);
  return first ? FrontEndForContent(*first, text) : nullptr;
}

// A literal's new text: the old value found exactly once inside the token
// (its quotes and escapes stay as written).
std::optional<TextEdit> ReplaceLiteral(std::string_view text, const FixChange& c) {
  std::optional<size_t> begin = OffsetOf(text, c.range.begin);
  std::optional<size_t> end = OffsetOf(text, c.range.end);
  if (!begin || !end || *end <= *begin || c.text.empty()) return std::nullopt;
  std::string_view token = text.substr(*begin, *end - *begin);
  size_t at = token.find(c.text);
  if (at == std::string_view::npos || token.find(c.text, at + 1) != std::string_view::npos) return std::nullopt;
  return TextEdit{*begin + at, *begin + at + c.text.size(), c.value};
}

std::optional<TextEdit> EditFor(std::string_view text, const FixChange& c) {
  // Only the formats with an editor take fixes (not CDK sources, Terraform
  // plans or JSON, policy documents: SPEC §13).
  const FrontEnd* fe = FrontEndFor(c.path, text);
  if (!fe || !fe->edit || (fe->format == Format::kTerraform && !c.path.ends_with(".tf"))) return std::nullopt;
  if (c.op == FixChange::Op::kReplace) return ReplaceLiteral(text, c);
  std::optional<TextEdit> e = fe->edit(text, c);
  if (e && (e->begin > e->end || e->end > text.size())) return std::nullopt;
  return e;
}

// How many parse errors `text` gives as the file at `path`; nullopt when no
// front end reads it any more.
std::optional<size_t> ParseErrors(const std::string& path, const std::string& text) {
  const FrontEnd* fe = FrontEndFor(path, text);
  if (!fe) return std::nullopt;
  std::error_code ec;
  std::filesystem::path abs = std::filesystem::absolute(path, ec);
  SourceFile file{path, abs.string(), text, ""};
  ResolveOptions opts;
  opts.root = abs.parent_path().string();
  if (fe->parse) return fe->parse(file, opts).errors.size();
  if (fe->parse_module) {
    TerraformRoot root;
    root.files.push_back(file);
    root.syntax_only = true;
    size_t errors = 0;
    for (const FileResult& r : fe->parse_module(root, opts)) errors += r.errors.size();
    return errors;
  }
  return std::nullopt;  // an app's files: not fixed
}

struct PlannedEdit {
  TextEdit edit;
  size_t finding;
  size_t order;  // the edit's place among its fix's edits
};

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(at, end - at));
    at = end;
  }
  return lines;
}

// The shortest edit script between two line sequences (Myers): for each line
// of the result, 0 = kept, -1 = removed from `a`, +1 = added from `b`.
std::vector<int> EditScript(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  const int max = n + m;
  std::vector<int> v(2 * max + 2, 0);
  std::vector<std::vector<int>> trace;
  int found = -1;
  for (int d = 0; d <= max && found < 0; ++d) {
    trace.push_back(v);
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[k - 1 + max] < v[k + 1 + max])) ? v[k + 1 + max] : v[k - 1 + max] + 1;
      int y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      v[k + max] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  std::vector<int> script;
  int x = n, y = m;
  for (int d = found; d > 0; --d) {
    const std::vector<int>& pv = trace[d];
    int k = x - y;
    int prev_k = (k == -d || (k != d && pv[k - 1 + max] < pv[k + 1 + max])) ? k + 1 : k - 1;
    int prev_x = pv[prev_k + max], prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) script.push_back(0), --x, --y;
    script.push_back(x == prev_x ? +1 : -1);
    x = prev_x, y = prev_y;
  }
  while (x > 0 && y > 0) script.push_back(0), --x, --y;
  std::reverse(script.begin(), script.end());
  return script;
}

void AppendLine(std::string& out, char mark, std::string_view line) {
  out += mark;
  out += line;
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

std::string Range(int start, int count) {
  // A hunk that adds to an empty side names the line before it.
  std::string s = std::to_string(count == 0 ? start - 1 : start);
  if (count != 1) s += "," + std::to_string(count);
  return s;
}

}  // namespace

void ResolveFixes(std::vector<Finding>& findings, const FileSource& files) {
  Texts texts(files);
  for (Finding& f : findings) {
    if (!f.fix || !f.fix->edits.empty()) continue;
    std::vector<FixEdit> edits;
    for (const FixChange& c : f.fix->changes) {
      const std::string* text = texts.Get(c.path);
      std::optional<TextEdit> e = text ? EditFor(*text, c) : std::nullopt;
      if (!e) break;
      FixEdit edit{c.path, {PositionOf(*text, e->begin), PositionOf(*text, e->end)}, e->content};
      edits.push_back(std::move(edit));
    }
    if (edits.size() != f.fix->changes.size() || edits.empty()) {
      f.fix.reset();
      continue;
    }
    f.fix->edits = std::move(edits);
  }
}

FixPlan PlanFixes(const std::vector<Finding>& findings, bool unsafe) {
  FixPlan plan;
  Texts texts(DiskFiles());
  // Each file's edits, by the finding they fix; a fix whose edits overlap an
  // edit taken already (or a different one at the same place) waits.
  std::map<std::string, std::vector<PlannedEdit>> taken;
  std::vector<bool> applied(findings.size(), false);
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    if (!f.fix || f.fix->edits.empty()) continue;
    if (f.fix->applicability == Applicability::kUnsafe && !unsafe) {
      ++plan.unsafe_skipped;
      continue;
    }
    std::vector<std::pair<std::string, TextEdit>> edits;
    bool ok = true;
    for (const FixEdit& e : f.fix->edits) {
      const std::string* text = texts.Get(e.path);
      std::optional<size_t> b = text ? OffsetOf(*text, e.range.begin) : std::nullopt;
      std::optional<size_t> en = text ? OffsetOf(*text, e.range.end) : std::nullopt;
      if (!b || !en || *en < *b) {
        ok = false;
        break;
      }
      edits.push_back({e.path, TextEdit{*b, *en, e.content}});
    }
    if (!ok) continue;
    bool duplicate = true, clash = false;
    for (const auto& [path, e] : edits) {
      bool same = false;
      for (const PlannedEdit& t : taken[path]) {
        if (t.edit == e) {
          same = true;
        } else if (e.begin < t.edit.end && t.edit.begin < e.end) {
          clash = true;
        } else if (e.begin == t.edit.begin && (e.begin != e.end || t.edit.begin != t.edit.end)) {
          clash = true;  // an insertion where another fix replaces text
        }
        // Two insertions at one place both go in, in the order of their findings.
      }
      duplicate = duplicate && same;
    }
    if (clash) {
      plan.notes.push_back(f.path + ":" + std::to_string(f.range.begin.line) + ": the fix for " + f.rule +
                           " overlaps another fix's edit; run again to apply it");
      continue;
    }
    applied[i] = true;
    if (duplicate) continue;  // the same edit as a fix taken already
    size_t order = 0;
    for (auto& [path, e] : edits) taken[path].push_back({std::move(e), i, order++});
  }
  for (auto& [path, edits] : taken) {
    const std::string* text = texts.Get(path);
    std::error_code ec;
    if (std::filesystem::is_symlink(path, ec)) {
      // Writing would replace the link with a file: the link's target is edited where it lives.
      plan.notes.push_back(path + ": left unchanged: it is a symbolic link");
      for (const PlannedEdit& p : edits) applied[p.finding] = false;
      continue;
    }
    std::sort(edits.begin(), edits.end(),
              // From the end of the file back, so that offsets stay valid; insertions at
              // one place in reverse, so that they read in the order they were planned.
              [](const PlannedEdit& a, const PlannedEdit& b) {
                return std::tie(a.edit.begin, a.finding, a.order) > std::tie(b.edit.begin, b.finding, b.order);
              });
    std::string after = *text;
    for (const PlannedEdit& p : edits) after.replace(p.edit.begin, p.edit.end - p.edit.begin, p.edit.content);
    std::optional<size_t> errors_before = ParseErrors(path, *text);
    std::optional<size_t> errors_after = ParseErrors(path, after);
    if (!errors_before || !errors_after || *errors_after > *errors_before) {
      plan.notes.push_back(path + ": left unchanged: with its fixes applied it would no longer parse");
      for (const PlannedEdit& p : edits) applied[p.finding] = false;
      continue;
    }
    FileFix file{path, *text, std::move(after), 0};
    for (size_t i = 0; i < findings.size(); ++i) {
      if (!applied[i]) continue;
      for (const FixEdit& e : findings[i].fix->edits) {
        if (e.path == path) {
          ++file.fixes;
          break;
        }
      }
    }
    plan.files.push_back(std::move(file));
  }
  for (bool a : applied) plan.fixes += a ? 1 : 0;
  return plan;
}

std::string UnifiedDiff(std::string_view path, std::string_view before, std::string_view after) {
  if (before == after) return {};
  std::vector<std::string_view> a = Lines(before), b = Lines(after);
  std::vector<int> script = EditScript(a, b);
  constexpr int kContext = 3;
  std::string out = "--- a/" + std::string(path) + "\n+++ b/" + std::string(path) + "\n";
  // Walk the script in hunks: a change and the kept lines around it.
  size_t i = 0;
  int ai = 0, bi = 0;  // positions in a and b at script[i]
  while (i < script.size()) {
    if (script[i] == 0) {
      ++i, ++ai, ++bi;
      continue;
    }
    // A hunk starts kContext kept lines before this change.
    size_t start = i;
    int back = 0;
    while (back < kContext && start > 0 && script[start - 1] == 0) --start, ++back;
    int a_start = ai - back, b_start = bi - back;
    // It ends where more than 2 × kContext kept lines follow a change.
    size_t end = i;
    while (end < script.size()) {
      if (script[end] != 0) {
        ++end;
        continue;
      }
      size_t run = end;
      while (run < script.size() && script[run] == 0) ++run;
      if (run == script.size() || run - end > 2 * kContext) {
        end = std::min(run, end + kContext);
        break;
      }
      end = run;
    }
    int a_count = 0, b_count = 0;
    std::string body;
    int x = a_start, y = b_start;
    for (size_t j = start; j < end; ++j) {
      if (script[j] == 0) {
        AppendLine(body, ' ', a[x]);
        ++x, ++y, ++a_count, ++b_count;
      } else if (script[j] < 0) {
        AppendLine(body, '-', a[x]);
        ++x, ++a_count;
      } else {
        AppendLine(body, '+', b[y]);
        ++y, ++b_count;
      }
    }
    out += "@@ -" + Range(a_start + 1, a_count) + " +" + Range(b_start + 1, b_count) + " @@\n" + body;
    i = end, ai = x, bi = y;
  }
  return out;
}

}  // namespace sagelint
