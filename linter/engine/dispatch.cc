#include "linter/engine/dispatch.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <utility>

#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "linter/base/strings.h"
#include "linter/engine/front_ends.h"
#include "parsers/cdk/front_end.h"

namespace sagelint {
namespace fs = std::filesystem;

namespace {

ParsedFile Failed(const DiscoveredFile& f, Format format, std::string message) {
  ParsedFile pf;
  pf.result.path = f.display();
  pf.result.root_path = f.root_path();
  pf.result.format = format;
  pf.result.errors.push_back({std::move(message), {1, 1}});
  return pf;
}

// Everything a front end throws is turned into a parse error: a bug in one
// parser must not lose the file silently or stop the scan.
ParsedFile Guarded(const DiscoveredFile& f, const FrontEnd& front_end, const SourceFile& s,
                   const ResolveOptions& opts) {
  ParsedFile pf;
  std::optional<std::vector<Comment>> comments;  // of the parse's own tree
  try {
    if (front_end.parse_keeping_comments && s.text.find("sagelint:") != std::string::npos) {
      pf.result = front_end.parse_keeping_comments(s, opts, &comments);
    } else {
      pf.result = front_end.parse(s, opts);
    }
  } catch (const std::exception& e) {
    pf = Failed(f, front_end.format, std::string("internal parser error: ") + e.what());
  }
  pf.result.path = f.display();
  if (comments) {
    pf.comments = SagelintComments(std::move(*comments));
  } else {
    KeepComments(pf, s.text, front_end.CommentsIn(pf.result.path));
  }
  return pf;
}

// A front end that evaluates a file together with others (a CDK app): one
// result per file, each with the comments of its own text.
std::vector<ParsedFile> GuardedApp(const DiscoveredFile& f, const FrontEnd& front_end, const SourceFile& s,
                                   const ResolveOptions& opts) {
  std::vector<ParsedFile> out;
  std::vector<FileResult> results;
  try {
    results = front_end.parse_app(s, f.named, opts);
  } catch (const std::exception& e) {
    out.push_back(Failed(f, front_end.format, std::string("internal parser error: ") + e.what()));
    return out;
  }
  for (FileResult& r : results) {
    ParsedFile pf;
    pf.result = std::move(r);
    if (pf.result.path == s.path) {
      KeepComments(pf, s.text, front_end.CommentsIn(pf.result.path));
    } else {
      std::string text, error;
      fs::path abs = fs::path(s.abs_path).parent_path() /
                     fs::path(pf.result.path).lexically_relative(fs::path(s.path).parent_path());
      if (ReadWholeFile(*opts.files, abs.lexically_normal().string(), &text, &error)) {
        KeepComments(pf, text, front_end.CommentsIn(pf.result.path));
      }
    }
    out.push_back(std::move(pf));
  }
  return out;
}

// A cheap byte scan: only files that mention SageMaker (any case, including
// AWS::SageMaker::, sagemaker: IAM actions, AmazonSageMakerFullAccess and
// ServiceNamespace: sagemaker) can hold anything the rules look at.
bool MentionsSageMaker(std::string_view text) {
  return text.find("agemaker") != std::string_view::npos || text.find("ageMaker") != std::string_view::npos ||
         text.find("AGEMAKER") != std::string_view::npos;
}

std::string CanonicalDir(const fs::path& p, const FileSource& files) {
  auto c = files.WeaklyCanonical(p.string());
  return c ? *c : p.lexically_normal().string();
}

bool InsideRoot(const std::string& path, const std::string& root) { return PathBelow(path, root).has_value(); }

}  // namespace

bool ReadWholeFile(const std::string& path, std::string* out, std::string* error) {
  return ReadWholeFile(DiskFiles(), path, out, error);
}

bool ReadWholeFile(const FileSource& files, const std::string& path, std::string* out, std::string* error) {
  return files.Read(path, kMaxSourceBytes, out, error);
}

namespace {

// A Terraform variable file (`.tfvars`, `.tfvars.json`): it calls no module.
bool IsVariableFile(std::string_view path) {
  return EndsWithNoCase(path, ".tfvars") || EndsWithNoCase(path, ".tfvars.json");
}

// A Terraform module directory as the planner sees it: does it (or what it
// calls) mention SageMaker, and which local modules does it call.
struct TfDir {
  std::vector<DiscoveredFile> files;  // its discovered (or listed) Terraform files
  std::string root;                   // scan root
  bool mentions = false;
  std::vector<std::string> calls;  // directories (canonical) of local module calls inside the root
  bool scanned = false;            // its files were discovered (or named), not only reached by a call
};

// The Terraform files of a directory, as Terraform loads them.
std::vector<DiscoveredFile> ListTerraformFiles(const std::string& dir, const std::string& root,
                                               const FileSource& files) {
  std::vector<std::string> paths;
  std::vector<DirEntry> entries;
  std::string error;
  files.List(dir, &entries, &error);
  for (const DirEntry& e : entries) {
    std::string p = (fs::path(dir) / e.name).string();
    const FrontEnd* front_end = FrontEndForPath(p);
    if (e.type == FileType::kRegular && front_end && front_end->reads_modules()) paths.push_back(std::move(p));
  }
  std::sort(paths.begin(), paths.end());
  std::vector<DiscoveredFile> out;
  std::shared_ptr<const DirPaths> shared;
  for (const std::string& p : paths) out.push_back(DescribeFile(p, root, false, &shared, files));
  return out;
}

class Planner {
 public:
  Planner(const DiscoverOptions& discover, const TerraformFacts* facts)
      : discover_(discover), files_(*discover.files), facts_(facts) {}

  // Adds a directory's files; reads them for the pre-filter and the calls, and follows the calls.
  TfDir& Add(const std::string& dir, std::vector<DiscoveredFile> files, const std::string& root, bool scanned) {
    auto [it, fresh] = dirs_.try_emplace(dir);
    TfDir& d = it->second;
    if (!fresh) {
      if (scanned && !d.scanned) {
        d.scanned = true;
        d.files = std::move(files);
      }
      return d;
    }
    d.files = std::move(files);
    d.root = root;
    d.scanned = scanned;
    Read(dir, d);
    for (const std::string& c : d.calls) {
      if (!dirs_.count(c)) Add(c, ListTerraformFiles(c, root, files_), root, false);
    }
    return dirs_.at(dir);
  }

  // Every Terraform directory under a scan root (pre-commit: to find the callers of a named file's module).
  void AddAllUnder(const std::string& root) {
    if (!walked_.insert(root).second) return;
    DiscoverResult all = Discover({root}, discover_);
    std::map<std::string, std::vector<DiscoveredFile>> by_dir;
    for (DiscoveredFile& f : all.files) {
      if (f.in_module()) by_dir[fs::path(f.abs_path()).parent_path().string()].push_back(std::move(f));
    }
    for (auto& [dir, files] : by_dir) Add(dir, ListTerraformFiles(dir, root, files_), root, true);
  }

  // Called by another directory of the graph.
  bool Called(const std::string& dir) {
    if (callers_.empty()) {
      for (const auto& [d, info] : dirs_) {
        for (const std::string& c : info.calls) {
          if (c != d) callers_[c].insert(d);
        }
      }
    }
    return callers_.count(dir) > 0;
  }

  // It or a module it calls (transitively) mentions SageMaker.
  bool Relevant(const std::string& dir) {
    std::set<std::string> seen;
    std::vector<std::string> stack{dir};
    while (!stack.empty()) {
      std::string d = stack.back();
      stack.pop_back();
      if (!seen.insert(d).second) continue;
      auto it = dirs_.find(d);
      if (it == dirs_.end()) continue;
      if (it->second.mentions) return true;
      for (const std::string& c : it->second.calls) stack.push_back(c);
    }
    return false;
  }

  // The directories that call `dir`, directly or through others (`dir` among them only on a cycle).
  std::set<std::string> Reaching(const std::string& dir) {
    Called(dir);
    std::set<std::string> seen;
    std::vector<std::string> stack;
    if (auto it = callers_.find(dir); it != callers_.end()) stack.assign(it->second.begin(), it->second.end());
    while (!stack.empty()) {
      std::string d = stack.back();
      stack.pop_back();
      if (!seen.insert(d).second) continue;
      if (auto it = callers_.find(d); it != callers_.end())
        stack.insert(stack.end(), it->second.begin(), it->second.end());
    }
    return seen;
  }

  // The uncalled directories from which `dir` is reached (itself if nothing calls it).
  std::set<std::string> TopCallers(const std::string& dir) {
    Called(dir);
    std::set<std::string> out, seen;
    std::vector<std::string> stack{dir};
    while (!stack.empty()) {
      std::string d = stack.back();
      stack.pop_back();
      if (!seen.insert(d).second) continue;
      auto it = callers_.find(d);
      if (it == callers_.end() || it->second.empty()) {
        out.insert(d);
        continue;
      }
      for (const std::string& c : it->second) stack.push_back(c);
    }
    return out;
  }

  // Where `dir` is evaluated from: the uncalled directories that reach it;
  // when only a cycle of modules reaches it, the first scanned directory of
  // that cycle (whose evaluation reports the cycle Terraform rejects).
  std::set<std::string> Roots(const std::string& dir) {
    std::set<std::string> tops = TopCallers(dir);
    if (!tops.empty()) return tops;
    std::set<std::string> reaching = Reaching(dir);
    reaching.insert(dir);
    for (const std::string& d : reaching) {  // in order: the first scanned one that lies on a cycle
      auto it = dirs_.find(d);
      if (it != dirs_.end() && it->second.scanned && Reaching(d).count(d)) return {d};
    }
    return {dir};
  }

  // Whether `dir` is evaluated as a root although another module calls it: it lies on a cycle no root reaches.
  bool CycleRoot(const std::string& dir) { return TopCallers(dir).empty() && Roots(dir) == std::set<std::string>{dir}; }

  TfDir& dir(const std::string& d) { return dirs_.at(d); }

 private:
  void Read(const std::string& dir, TfDir& d) {
    for (const DiscoveredFile& f : d.files) {
      std::optional<TerraformFileFacts> facts;
      if (facts_) {
        facts = (*facts_)(f);
      } else if (std::string text, error; ReadWholeFile(files_, f.abs_path(), &text, &error)) {
        facts = TerraformFactsOf(f, text);
      }
      if (!facts) continue;
      d.mentions = d.mentions || facts->mentions;
      for (const std::string& src : facts->sources) {
        std::string target = CanonicalDir(fs::path(dir) / src, files_);
        if (InsideRoot(target, d.root) || target == d.root) {
          if (files_.IsDirectory(target)) d.calls.push_back(target);
        }
      }
    }
  }

  const DiscoverOptions& discover_;
  const FileSource& files_;
  const TerraformFacts* facts_;  // nullptr: each file is read
  std::map<std::string, TfDir> dirs_;
  std::map<std::string, std::set<std::string>> callers_;
  std::set<std::string> walked_;
};

}  // namespace

const std::string& WorkUnit::root() const {
  static const std::string kNone;
  return files.empty() ? kNone : files.front().root();
}

TerraformFileFacts TerraformFactsOf(const DiscoveredFile& f, const std::string& text) {
  TerraformFileFacts facts;
  facts.mentions = MentionsSageMaker(text);
  // A variable file calls no module.
  if (!IsVariableFile(f.display())) {
    facts.sources = TerraformLocalModuleSources({f.display(), f.abs_path(), text, f.root_path()});
  }
  return facts;
}

Plan PlanUnits(std::vector<DiscoveredFile> files, const DiscoverOptions& discover, const TerraformFacts* facts) {
  // A CDK app whose cdk.json the scan reads is evaluated once, from there: a
  // file of it also named alone is not evaluated again from its entry.
  std::vector<std::string> apps;
  for (const DiscoveredFile& f : files) {
    if (IsCdkJson(f.abs_path())) apps.push_back(fs::path(f.abs_path()).parent_path().string());
  }
  for (DiscoveredFile& f : files) {
    if (!f.named || !f.front_end || !f.front_end->parse_app || IsCdkJson(f.abs_path())) continue;
    for (const std::string& dir : apps) {
      if (InsideRoot(f.abs_path(), dir)) f.named = false;
    }
  }
  Plan plan;
  std::vector<WorkUnit>& units = plan.modules;
  std::map<std::string, std::vector<DiscoveredFile>> modules;  // by directory (canonical)
  std::map<std::string, std::string> canonical;                // directory -> canonical, resolved once
  // A directory of the disk whose parent is its own canonical form, and
  // which is no link, is its own too: one lstat, not one per component of
  // its path (a large tree has thousands of Terraform directories).
  std::function<const std::string&(const std::string&)> resolve = [&](const std::string& dir) -> const std::string& {
    auto [c, fresh] = canonical.try_emplace(dir);
    if (!fresh) return c->second;
    fs::path p(dir);
    std::string parent = p.parent_path().string();
    struct stat st;
    bool own = discover.files == &DiskFiles() && p.is_absolute() && p == p.lexically_normal() && p.has_filename() &&
               p.filename() != "." && p.filename() != ".." && parent != dir && resolve(parent) == parent &&
               ::lstat(dir.c_str(), &st) == 0 && !S_ISLNK(st.st_mode);
    c = canonical.find(dir);  // the map grew meanwhile (its iterators stay valid; found again for clarity)
    c->second = own ? dir : CanonicalDir(dir, *discover.files);
    return c->second;
  };
  for (DiscoveredFile& f : files) {
    if (!f.in_module()) continue;
    modules[resolve(fs::path(f.abs_path()).parent_path().string())].push_back(std::move(f));
  }
  files.erase(std::remove_if(files.begin(), files.end(), [](const DiscoveredFile& f) { return f.in_module(); }),
              files.end());
  files.shrink_to_fit();
  plan.files = std::move(files);
  if (modules.empty()) return plan;

  Planner planner(discover, facts);
  std::vector<std::string> named_dirs, scanned_dirs;
  std::vector<std::string> named;  // display paths of named Terraform files
  for (auto& [dir, fs_] : modules) {
    // Files named alone (pre-commit) are evaluated with their module's other files.
    bool all_named = std::all_of(fs_.begin(), fs_.end(), [](const auto& f) { return f.named; });
    std::string root = fs_.front().root();
    if (all_named) {
      for (const auto& f : fs_) named.push_back(f.display());
      named_dirs.push_back(dir);
      std::set<std::string> have;
      for (const auto& f : fs_) have.insert(CanonicalDir(f.abs_path(), *discover.files));
      std::vector<DiscoveredFile> all = fs_;
      for (DiscoveredFile& f : ListTerraformFiles(dir, root, *discover.files)) {
        if (!have.count(f.abs_path())) all.push_back(std::move(f));
      }
      planner.Add(dir, std::move(all), root, true);
      planner.AddAllUnder(root);
    } else {
      scanned_dirs.push_back(dir);
      planner.Add(dir, fs_, root, true);
    }
  }
  // A directory walked: evaluated as a root unless another module calls it.
  for (const std::string& dir : scanned_dirs) {
    if (!planner.Relevant(dir)) continue;
    WorkUnit u;
    u.terraform_module = true;
    u.files = modules[dir];
    u.syntax_only = planner.Called(dir) && !planner.CycleRoot(dir);
    units.push_back(std::move(u));
  }
  // Named files: evaluated from the root modules that reach them.
  std::set<std::string> roots_done;
  for (const std::string& dir : named_dirs) {
    bool called = planner.Called(dir);
    if (called) {
      WorkUnit u;
      u.terraform_module = true;
      u.syntax_only = true;
      u.files = modules[dir];
      u.named = named;
      units.push_back(std::move(u));
    }
    for (const std::string& top : planner.Roots(dir)) {
      if (!roots_done.insert(top).second || !planner.Relevant(top)) continue;
      WorkUnit u;
      u.terraform_module = true;
      u.files = planner.dir(top).files;
      for (DiscoveredFile& f : u.files) {
        f.named = std::find(named.begin(), named.end(), f.display()) != named.end();
      }
      u.named = named;
      units.push_back(std::move(u));
    }
  }
  return plan;
}

std::vector<ParsedFile> ParseUnit(const WorkUnit& unit, const ResolveOptions& base_opts,
                                  std::vector<std::string>* skipped) {
  if (!unit.terraform_module) {
    return unit.files.empty() ? std::vector<ParsedFile>{} : ParseFile(unit.files.front(), base_opts, skipped);
  }
  std::vector<ParsedFile> out;
  if (unit.files.empty()) return out;
  ResolveOptions opts = base_opts;
  opts.root = unit.root();
  TerraformRoot root;
  root.named = unit.named;
  root.syntax_only = unit.syntax_only;
  for (const DiscoveredFile& f : unit.files) {
    SourceFile s{f.display(), f.abs_path(), {}, f.root_path()};
    std::string error;
    if (!ReadWholeFile(*opts.files, f.abs_path(), &s.text, &error)) {
      out.push_back(NotScannedFile(f.display(), f.root_path(), Format::kTerraform,
                                   "sagelint did not read this file (" + error + ")"));
      // Of a file named with its module's (pre-commit), only the named ones are reported.
      out.back().result.context = !unit.named.empty() && !f.named;
      continue;
    }
    root.files.push_back(std::move(s));
  }
  const FrontEnd& front_end = *unit.files.front().front_end;
  std::map<std::string, std::vector<Comment>> tree_comments;  // of the trees the parse builds
  try {
    bool mentions = std::any_of(root.files.begin(), root.files.end(),
                                [](const SourceFile& s) { return s.text.find("sagelint:") != std::string::npos; });
    for (FileResult& r : mentions&& front_end.parse_module_keeping_comments
                             ? front_end.parse_module_keeping_comments(root, opts, &tree_comments)
                             : front_end.parse_module(root, opts)) {
      ParsedFile pf;
      pf.result = std::move(r);
      auto file = std::find_if(root.files.begin(), root.files.end(),
                               [&](const SourceFile& s) { return s.path == pf.result.path; });
      auto kept = tree_comments.find(pf.result.path);
      if (file != root.files.end() && kept != tree_comments.end()) {
        pf.comments = SagelintComments(std::move(kept->second));
      } else if (file != root.files.end()) {
        KeepComments(pf, file->text, front_end.CommentsIn(pf.result.path));
      } else {
        // A called module's file: its comments hold suppressions too.
        std::string text, error;
        if (ReadWholeFile(*opts.files, pf.result.path, &text, &error)) {
          KeepComments(pf, text, front_end.CommentsIn(pf.result.path));
        }
      }
      out.push_back(std::move(pf));
    }
  } catch (const std::exception& e) {
    out.push_back(Failed(unit.files.front(), front_end.format, std::string("internal parser error: ") + e.what()));
  }
  return out;
}

ParsedFile NotScannedFile(std::string display, std::string root_path, Format format, std::string why) {
  ParsedFile pf;
  pf.result.path = std::move(display);
  pf.result.root_path = std::move(root_path);
  pf.result.format = format;
  pf.result.unread.push_back({std::move(why), {1, 1}});
  return pf;
}

std::vector<ParsedFile> ParseFile(const DiscoveredFile& f, const ResolveOptions& base_opts,
                                  std::vector<std::string>* skipped) {
  std::vector<ParsedFile> out;
  ResolveOptions opts = base_opts;
  opts.root = f.root();
  if (!f.front_end || (f.front_end->named_only && !f.named)) return out;
  SourceFile s{f.display(), f.abs_path(), {}, f.root_path()};
  std::string error;
  if (!ReadWholeFile(*opts.files, f.abs_path(), &s.text, &error)) {
    out.push_back(NotScannedFile(f.display(), f.root_path(), f.front_end->format,
                                 "sagelint did not read this file (" + error + ")"));
    return out;
  }
  // A cheap byte scan first: only files that can mention SageMaker are parsed.
  if (f.front_end->reads_modules() || (!f.front_end->ungated && !MentionsSageMaker(s.text))) return out;
  if (const FrontEnd* front_end = FrontEndForContent(*f.front_end, s.text)) {
    if (front_end->parse_app) {
      out = GuardedApp(f, *front_end, s, opts);
    } else {
      out.push_back(Guarded(f, *front_end, s, opts));
    }
  }
  for (ParsedFile& pf : out) {
    if (pf.result.path == f.display()) pf.result.root_path = f.root_path();
    // What the front end read but did not evaluate is told, not reported.
    for (const ParseError& n : pf.result.notes) {
      skipped->push_back(pf.result.path + ":" + std::to_string(n.pos.line) + ":" + std::to_string(n.pos.column) + ": " +
                         n.message);
    }
  }
  return out;
}

}  // namespace sagelint
