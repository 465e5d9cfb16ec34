// Terraform front end: a root module's files evaluated with the local modules
// it calls (see eval.h), pre-commit stand-ins, and plan JSON.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "parsers/common/node.h"
#include "parsers/common/top_keys.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/frontend.h"
#include "parsers/terraform/comments.h"
#include "parsers/terraform/eval.h"
#include "parsers/terraform/resources.h"
#include "parsers/terraform/value.h"

namespace sagelint {
namespace tf {
namespace {

TfVal Known(TfVal::Kind kind, std::string text, SourceRange r) {
  TfVal v;
  v.kind = kind;
  v.text = std::move(text);
  v.range = r;
  return v;
}

// The files among `named` whose text wrote some value of `v`.
void Setters(const TfVal& v, const std::set<std::string>& named, std::set<std::string>* out, int depth) {
  if (depth > kMaxDepth) return;
  if (!v.src_path.empty() && v.src.valid() && named.count(v.src_path)) out->insert(v.src_path);
  for (const TfVal& i : v.items) Setters(i, named, out, depth + 1);
  for (const auto& f : v.fields) Setters(f.second, named, out, depth + 1);
}

// A stand-in's value: what `path` wrote is placed where it was written; the rest has no position.
TfVal Attributed(TfVal v, const std::string& path, int depth) {
  v.range = v.src_path == path ? v.src : SourceRange{};
  if (v.src_path != path) v.block = {};
  if (depth > kMaxDepth) return v;
  for (TfVal& i : v.items) i = Attributed(std::move(i), path, depth + 1);
  for (auto& f : v.fields) f.second = Attributed(std::move(f.second), path, depth + 1);
  return v;
}

// Plan JSON: planned_values.root_module and its child_modules.
void PlanResources(const cfn::Node& module, const std::string& path, std::vector<Resource>* out, int depth) {
  if (depth > kMaxModuleDepth * 4) return;
  if (const cfn::Node* rs = module.Get("resources"); rs && rs->is_seq()) {
    for (const cfn::Node& r : rs->items) {
      const cfn::Node* type = r.Get("type");
      const cfn::Node* address = r.Get("address");
      const cfn::Node* values = r.Get("values");
      if (!type || !address || !values || !type->is_scalar() || !address->is_scalar()) continue;
      Resource res;
      const cfn::Node* mode = r.Get("mode");
      res.mode = mode && mode->is_scalar() && mode->text == "data" ? "data" : "resource";
      res.type = type->text;
      res.address = address->text;
      res.range = {r.pos, r.pos};
      res.path = path;
      res.scope = path;
      // Values in a plan are resolved: convert them as they are.
      std::function<TfVal(const cfn::Node&, int)> conv = [&](const cfn::Node& n, int d) {
        TfVal v;
        v.range = {n.pos, n.pos};
        if (d > kMaxDepth) return v;
        if (n.is_null())
          v.kind = TfVal::Kind::kNull;
        else if (n.is_scalar())
          return Known(TfVal::Kind::kStr, n.text, v.range);
        else if (n.is_seq()) {
          v.kind = TfVal::Kind::kList;
          for (const cfn::Node& i : n.items) v.items.push_back(conv(i, d + 1));
        } else {
          v.kind = TfVal::Kind::kMap;
          for (const auto& [k, x] : n.entries) v.fields.emplace_back(k, conv(x, d + 1));
        }
        return v;
      };
      res.body = conv(*values, 0);
      // JSON documents (policies, definitions) are strings in a plan.
      out->push_back(std::move(res));
    }
  }
  if (const cfn::Node* children = module.Get("child_modules"); children && children->is_seq()) {
    for (const cfn::Node& c : children->items) PlanResources(c, path, out, depth + 1);
  }
}

}  // namespace
}  // namespace tf

bool LooksLikeTerraformPlan(std::string_view text) {
  if (text.find("\"planned_values\"") == std::string_view::npos ||
      text.find("\"format_version\"") == std::string_view::npos) {
    return false;
  }
  // `terraform show -json` writes both at the top level of one object.
  auto keys = TopLevelKeys(text);
  if (!keys) return true;
  bool planned = false, format = false;
  for (const std::string& k : *keys) {
    planned = planned || k == "planned_values";
    format = format || k == "format_version";
  }
  return planned && format;
}

FileResult ParseTerraformPlan(const SourceFile& file, const ResolveOptions&) {
  FileResult out;
  out.path = file.path;
  out.root_path = file.root_path;
  out.format = Format::kTerraform;
  cfn::Node root;
  std::vector<cfn::LoadError> errors;
  if (!cfn::LoadDocument(file.text, 0, cfn::LoadLimits{}, &root, &errors)) {
    for (const auto& e : errors) out.errors.push_back({e.message, e.pos});
    return out;
  }
  const cfn::Node* module = root.Find({"planned_values", "root_module"});
  if (!module) return out;
  std::vector<tf::Resource> resources;
  tf::PlanResources(*module, file.path, &resources, 0);
  tf::ExtractWorkloads(resources, &out.workloads);
  return out;
}

std::vector<std::string> TerraformLocalModuleSources(const SourceFile& file) {
  // Only files that can hold a local module call are parsed.
  if (file.text.find("module") == std::string::npos ||
      (file.text.find("\"./") == std::string::npos && file.text.find("\"../") == std::string::npos &&
       file.text.find("\".\"") == std::string::npos && file.text.find("\"..\"") == std::string::npos)) {
    return {};
  }
  auto f = tf::ParseHclFile(file.abs_path, file.path, file.root_path, file.text);
  return tf::LocalModuleSources(*f);
}

std::optional<std::string> CheckTerraformVarFile(const std::string& path, const FileSource& files) {
  std::string text, error;
  if (!files.Read(path, kMaxTerraformFileBytes, &text, &error)) return path + ": " + error;
  auto f = tf::ParseHclFile(path, DisplayPath(path), DisplayPath(path), std::move(text));
  if (f->errors.empty()) return std::nullopt;
  const ParseError& e = f->errors.front();
  return DisplayPath(path) + ":" + std::to_string(e.pos.line) + ":" + std::to_string(e.pos.column) + ": " + e.message;
}

std::vector<FileResult> ParseTerraformModule(const TerraformRoot& root, const ResolveOptions& opts) {
  return ParseTerraformModuleKeepingComments(root, opts, nullptr);
}

std::vector<FileResult> ParseTerraformModuleKeepingComments(const TerraformRoot& root, const ResolveOptions& opts,
                                                            std::map<std::string, std::vector<Comment>>* comments) {
  namespace fs = std::filesystem;
  std::vector<FileResult> results;
  if (root.files.empty()) return results;
  tf::Unit unit(opts);
  std::set<std::string> named(root.named.begin(), root.named.end());
  bool precommit = !named.empty();
  std::vector<std::unique_ptr<tf::HclFile>> files;
  std::map<std::string, size_t> index;            // display path -> result
  std::map<std::string, std::string> root_paths;  // display path -> root-relative path
  for (const SourceFile& s : root.files) {
    std::string rp = s.root_path.empty() ? unit.RootRelative(s.abs_path) : s.root_path;
    auto f = tf::ParseHclFile(s.abs_path, s.path, rp, s.text);
    if (comments && f->tree && s.text.find("sagelint:") != std::string::npos) {
      // The file's own text: the tree's positions are its (exponent numbers keep their length).
      ts::AddComments(ts_tree_root_node(f->tree.get()), s.text, &(*comments)[s.path]);
    }
    FileResult r;
    r.path = s.path;
    r.root_path = rp;
    r.format = Format::kTerraform;
    if (!precommit || named.count(s.path)) r.errors = f->errors;
    root_paths[s.path] = rp;
    index[s.path] = results.size();
    results.push_back(std::move(r));
    files.push_back(std::move(f));
  }
  auto keep = [&](std::vector<FileResult>& rs) {
    std::vector<FileResult> out;
    for (FileResult& r : rs) {
      if (precommit && !named.count(r.path)) r.context = true;
      if (!r.workloads.empty() || !r.errors.empty() || !r.bounds.empty()) out.push_back(std::move(r));
    }
    return out;
  };
  if (root.syntax_only) return keep(results);

  fs::path dir = fs::path(root.files.front().abs_path).parent_path();
  unit.root_dir = dir.string();
  unit.scope = "tf:" + unit.RootRelative(dir);
  // --var-file: validated by the command line; read here for their values.
  std::vector<std::unique_ptr<tf::HclFile>> var_files;
  for (const std::string& vf : opts.tf_var_files) {
    std::string abs = fs::absolute(vf).string(), text, error;
    // Through the same cap as every Terraform file; one that cannot be read
    // on this side (the base revision of a diff lacks it) gives no values.
    if (!opts.files->Read(abs, kMaxTerraformFileBytes, &text, &error)) continue;
    var_files.push_back(tf::ParseHclFile(abs, DisplayPath(abs), unit.RootRelative(abs), std::move(text)));
    unit.var_files.push_back(var_files.back().get());
  }
  std::vector<tf::HclFile*> ptrs;
  for (auto& f : files) ptrs.push_back(f.get());
  tf::Module module(unit, ptrs, dir, "", "", nullptr, 0);
  module.Load();
  std::vector<tf::Resource> resources;
  module.Resources(&resources);
  std::vector<Workload> workloads;
  tf::ExtractWorkloads(resources, &workloads);

  auto result_for = [&](const std::string& path) -> FileResult& {
    auto it = index.find(path);
    if (it == index.end()) {
      FileResult r;
      r.path = path;
      auto rp = root_paths.find(path);
      r.root_path = rp != root_paths.end() ? rp->second : unit.RootRelative(fs::absolute(path));
      r.format = Format::kTerraform;
      it = index.emplace(path, results.size()).first;
      results.push_back(std::move(r));
    }
    return results[it->second];
  };
  for (Workload& w : workloads) result_for(w.path).workloads.push_back(std::move(w));
  // What Terraform would reject (a module cycle) is a parse error of the file that writes it.
  std::set<std::string> reported;
  for (auto& [path, error] : unit.errors) {
    if (reported.insert(path + ":" + std::to_string(error.pos.line) + ":" + error.message).second) {
      result_for(path).errors.push_back(std::move(error));
    }
  }
  // Where the evaluation's budget stopped it (SM007).
  for (auto& [path, bound] : unit.bounds) result_for(path).bounds.push_back(std::move(bound));

  // Pre-commit: a workload of an unnamed file whose values a named file sets
  // (a variable default, a tfvars value, a module argument) is reported in
  // that file, at the line that set the value.
  if (precommit) {
    for (const tf::Resource& r : resources) {
      if (named.count(r.path)) continue;
      std::set<std::string> setters;
      tf::Setters(r.body, named, &setters, 0);
      for (const std::string& s : setters) {
        tf::Resource stand_in = r;
        stand_in.path = s;
        stand_in.range = {};
        stand_in.body = tf::Attributed(r.body, s, 0);
        std::vector<Workload> ws;
        tf::ExtractWorkloads(resources, &ws, &stand_in);
        std::string declared = result_for(r.path).root_path;
        for (Workload& w : ws) {
          w.stand_in = true;
          w.range = {};
          w.label += " (declared in " + declared + ")";
          result_for(s).workloads.push_back(std::move(w));
        }
      }
    }
  }
  return keep(results);
}

}  // namespace sagelint
