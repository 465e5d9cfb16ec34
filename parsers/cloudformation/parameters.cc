// Template configuration files: parameter values kept beside a template, and
// a template evaluated once per configuration file that applies to it.
#include <filesystem>
#include <string>
#include <vector>

#include "linter/base/file_source.h"
#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "linter/base/strings.h"
#include "parsers/common/node.h"
#include "parsers/frontend.h"

namespace sagelint {
namespace {

namespace fs = std::filesystem;

bool InsideScanRoot(const std::string& path, const std::string& root) { return PathBelow(path, root).has_value(); }

// How a parameter file is named in labels and origins: relative to the
// template's directory, else to the scan root, else by its file name.
std::string ShownParameterFile(const fs::path& file, const SourceFile& tmpl, const std::string& root) {
  fs::path rel = file.lexically_relative(fs::path(tmpl.abs_path).parent_path());
  if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
  rel = file.lexically_relative(root);
  if (!root.empty() && !rel.empty() && *rel.begin() != "..") return rel.generic_string();
  return file.filename().string();
}

bool ScalarText(const cfn::Node& n, std::string* out) {
  if (n.is_scalar() && n.tag.empty()) {
    *out = n.text;
    return true;
  }
  if (n.is_seq()) {
    std::string joined;
    for (size_t i = 0; i < n.items.size(); ++i) {
      if (!n.items[i].is_scalar()) return false;
      joined += (i ? "," : "") + n.items[i].text;
    }
    *out = joined;
    return true;
  }
  return false;
}

}  // namespace

bool LoadTemplateConfiguration(std::string_view text, std::map<std::string, std::string>* out, ParseError* error) {
  cfn::Node root;
  std::vector<cfn::LoadError> errors;
  if (!cfn::LoadDocument(text, 0, cfn::LoadLimits{}, &root, &errors)) {
    *error = errors.empty() ? ParseError{"not JSON or YAML", {1, 1}} : ParseError{errors[0].message, errors[0].pos};
    return false;
  }
  if (!errors.empty()) {
    *error = {errors[0].message, errors[0].pos};
    return false;
  }
  auto bad = [&](const cfn::Node& at, const std::string& what) {
    *error = {what, at.pos.valid() ? at.pos : SourcePos{1, 1}};
    return false;
  };
  if (root.is_map()) {
    const cfn::Node* params = root.Get("Parameters");
    if (!params || !params->is_map()) {
      return bad(root, "expected {\"Parameters\": {...}} or [{\"ParameterKey\": ..., \"ParameterValue\": ...}]");
    }
    for (size_t i = 0; i < params->entries.size(); ++i) {
      std::string value;
      if (!ScalarText(params->entries[i].second, &value)) {
        return bad(params->entries[i].second, "parameter " + params->entries[i].first + ": the value must be a string");
      }
      (*out)[params->entries[i].first] = value;
    }
    return true;
  }
  if (root.is_seq()) {
    for (const cfn::Node& item : root.items) {
      const cfn::Node* key = item.Get("ParameterKey");
      const cfn::Node* value = item.Get("ParameterValue");
      if (!key || !key->is_scalar()) return bad(item, "each entry needs a ParameterKey");
      if (!value) {
        if (item.Get("UsePreviousValue")) continue;  // the deployed value: not known here
        return bad(item, "parameter " + key->text + ": no ParameterValue");
      }
      std::string text;
      if (!ScalarText(*value, &text)) return bad(*value, "parameter " + key->text + ": the value must be a string");
      (*out)[key->text] = text;
    }
    return true;
  }
  return bad(root, "expected {\"Parameters\": {...}} or [{\"ParameterKey\": ..., \"ParameterValue\": ...}]");
}

FileResult ParseTemplateWithParameters(const SourceFile& s, const ResolveOptions& opts) {
  struct ParamFile {
    std::string shown;
    fs::path abs;
  };
  std::vector<ParamFile> files;
  std::vector<ParseError> notes;
  std::error_code ec;
  const FileSource& source = *opts.files;
  for (const std::string& p : opts.cfn_param_files) {
    fs::path abs = source.WeaklyCanonical(fs::absolute(p, ec).string()).value_or("");
    files.push_back({ShownParameterFile(abs, s, opts.root), abs});
  }
  if (!opts.cfn_param_file_globs.empty()) {
    std::string rel = fs::path(s.abs_path).lexically_relative(opts.cfn_param_base).generic_string();
    for (const auto& [glob, names] : opts.cfn_param_file_globs) {
      if (!GlobMatch(glob, rel)) continue;
      for (const std::string& name : names) {
        fs::path abs = source.WeaklyCanonical((fs::path(s.abs_path).parent_path() / name).string()).value_or("");
        if (!InsideScanRoot(abs.string(), opts.root)) {
          notes.push_back({"parameter file " + name + " is outside the scan root; not read", {1, 1}});
          continue;
        }
        files.push_back({ShownParameterFile(abs, s, opts.root), abs});
      }
    }
  }
  if (files.empty() && notes.empty()) return ParseCloudFormation(s, opts);
  FileResult merged;
  bool any = false;
  for (const ParamFile& pf : files) {
    std::string text, error;
    std::map<std::string, std::string> params;
    ParseError bad;
    if (!source.Read(pf.abs.string(), kMaxSourceBytes, &text, &error)) {
      notes.push_back({"parameter file " + pf.shown + ": " + error, {1, 1}});
      continue;
    }
    if (!LoadTemplateConfiguration(text, &params, &bad)) {
      notes.push_back({"parameter file " + pf.shown + ":" + std::to_string(bad.pos.line) + ":" +
                           std::to_string(bad.pos.column) + ": " + bad.message + "; not applied",
                       {1, 1}});
      continue;
    }
    ResolveOptions o = opts;
    for (const auto& [k, v] : params) {
      o.cfn_parameters[k] = v;
      o.cfn_parameter_sources[k] = pf.shown;
    }
    for (const auto& [k, v] : opts.cfn_cli_parameters) {
      o.cfn_parameters[k] = v;
      o.cfn_parameter_sources.erase(k);
    }
    FileResult r = ParseCloudFormation(s, o);
    if (files.size() > 1) {
      // One evaluation per file: the workloads name it and link only among themselves.
      std::string from = "ref:" + s.path, to = "ref:" + s.path + "@" + pf.shown;
      auto rescope = [&](std::string& key) {
        if (key.rfind(from, 0) == 0 && (key.size() == from.size() || key[from.size()] == '#'))
          key = to + key.substr(from.size());
      };
      for (Workload& w : r.workloads) {
        w.label += " (parameters from " + pf.shown + ")";
        w.scope += "@" + pf.shown;
        for (std::string& k : w.keys) rescope(k);
        for (std::string& k : w.refs) rescope(k);
      }
    }
    if (!any) {
      merged = std::move(r);
      any = true;
    } else {
      for (Workload& w : r.workloads) merged.workloads.push_back(std::move(w));
    }
  }
  if (!any) merged = ParseCloudFormation(s, opts);
  merged.notes.insert(merged.notes.end(), notes.begin(), notes.end());
  return merged;
}

}  // namespace sagelint
