// Fuzzes one front end, the row of the front-end table named by
// SAGELINT_FUZZ_FRONT_END, with one in-memory file (a module of one file for
// Terraform, the entry of an app for the CDK source rows): any input ends in
// workloads or parse errors, and its comments are found.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "linter/engine/front_ends.h"
#include "parsers/cdk/app.h"

namespace {

const sagelint::FrontEnd& Fuzzed() {
  for (const sagelint::FrontEnd& fe : sagelint::FrontEnds()) {
    if (fe.name == SAGELINT_FUZZ_FRONT_END) return fe;
  }
  std::abort();  // a harness for a front end the table does not have
}

// Every change a rule may ask of the format's editor, at the places the
// parse gave: an edit stays inside the text whatever the input.
void EditEverything(const sagelint::FrontEnd& front_end, const std::string& text, const sagelint::FileResult& result) {
  using Op = sagelint::FixChange::Op;
  auto edit = [&](Op op, const sagelint::SourceRange& range, const char* field, const char* value) {
    sagelint::FixChange c{op, "input", range, field, "", value};
    std::optional<sagelint::TextEdit> e = front_end.edit(text, c);
    if (e && (e->begin > e->end || e->end > text.size())) std::abort();
  };
  size_t n = 0;
  for (const sagelint::Workload& w : result.workloads) {
    if (++n > 16) break;
    for (const char* field : {"max_wait_seconds", "spot", "checkpoint", "input_mode"}) {
      edit(Op::kInsert, w.range, field, "\"s3://b/x\"");
    }
    edit(Op::kRemove, w.accelerator_type.range, "accelerator_type", "");
    edit(Op::kRemove, w.max_wait_seconds.range, "max_wait_seconds", "");
    for (const sagelint::StudioApp& app : w.apps) {
      edit(Op::kInsert, app.range, "idle_settings",
           R"({"LifecycleManagement": "ENABLED", "IdleTimeoutInMinutes": 60})");
    }
  }
  edit(Op::kAppendCell, {}, "", "x.delete_endpoint()\n");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const sagelint::FrontEnd& front_end = Fuzzed();
  std::string name = "input" + std::string(front_end.suffixes.front());  // "input/cdk.json" for a whole name
  sagelint::SourceFile file{name, "/nonexistent/" + name, std::string(reinterpret_cast<const char*>(data), size)};
  sagelint::ResolveOptions opts;
  opts.root = "/nonexistent";  // file(), modules and definition files are never read outside it
  // The row's comment finder (suppressions); below, the comments a parse keeps from its tree.
  if (sagelint::CommentSyntax syntax = front_end.CommentsIn(name); syntax.find) {
    for (const sagelint::Comment& c : syntax.find(file.text)) {
      if (c.line < 1 || c.column < 1) std::abort();
    }
  }
  if (front_end.parse) {
    std::optional<std::vector<sagelint::Comment>> comments;
    sagelint::FileResult result = front_end.parse_keeping_comments
                                      ? front_end.parse_keeping_comments(file, opts, &comments)
                                      : front_end.parse(file, opts);
    if (front_end.edit) EditEverything(front_end, file.text, result);
    return result.workloads.size() > 1000000 ? 1 : 0;
  }
  if (front_end.parse_app && front_end.format == sagelint::Format::kCdk && file.path != "input/cdk.json") {
    // A source row: the input is an app's entry, evaluated and synthesized.
    sagelint::cdk::AppInput in;
    in.entry = file;
    in.opts = &opts;
    sagelint::cdk::App app =
        file.path.ends_with(".py") ? sagelint::cdk::EvaluatePythonApp(in) : sagelint::cdk::EvaluateTypeScriptApp(in);
    return sagelint::cdk::Synthesize(app, opts).size() > 1000000 ? 1 : 0;
  }
  if (front_end.parse_app) return front_end.parse_app(file, false, opts).size() > 1000000 ? 1 : 0;
  sagelint::TerraformRoot root;
  root.files = {file};
  return front_end.parse_module(root, opts).size() > 1000000 ? 1 : 0;
}
