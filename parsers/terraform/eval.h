// The Terraform evaluator: one module instance's declarations (variables,
// locals, resources, data sources, outputs, module calls) evaluated the way
// `terraform plan` would with what is statically known — count and for_each
// instances, dynamic blocks, for expressions, null, the common functions,
// local child modules — and unknown wherever a value depends on something
// only the provider knows.
//
// Defined by meaning: hcl_file.cc (files, the unit and its budget), eval.cc
// (declarations, instances, resources, module calls), variables.cc (types,
// variables, locals), expressions.cc, bodies.cc (block bodies, JSON syntax,
// templates), function_calls.cc and functions.cc (the built-ins); the helpers
// they share are in eval_shared.h.
#ifndef SAGELINT_PARSERS_TERRAFORM_EVAL_H_
#define SAGELINT_PARSERS_TERRAFORM_EVAL_H_

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/common/node.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/frontend.h"
#include "parsers/terraform/functions.h"
#include "parsers/terraform/resources.h"
#include "parsers/terraform/value.h"

namespace sagelint::tf {

// How deep an expression or a value is followed, and how deep local modules
// call each other, before the evaluator gives up (the value is then unknown).
inline constexpr int kMaxDepth = 64;
inline constexpr int kMaxModuleDepth = 8;

// One file of a module: HCL (`*.tf`, `*.tfvars`) or JSON (`*.tf.json`, `*.tfvars.json`).
struct HclFile {
  std::string path;       // display path
  std::string root_path;  // relative to the scan root
  std::string abs;
  std::string text;
  ts::Tree tree;
  bool json = false;
  cfn::Node json_root;
  bool vars = false;     // a variable file
  bool snippet = false;  // a JSON string's interpolation, parsed alone (positions are not the file's)
  bool broken = false;   // not parsed: `errors` says why
  std::vector<ParseError> errors;
  // Numbers written with an exponent and no fraction (`1e2`), which HCL
  // allows and the grammar does not read: `text` holds zeros of the same
  // length there (so positions stay put), and this their value by offset.
  std::map<uint32_t, std::string> exponent_numbers;
};

// Reads `text` as the kind its name says; errors are recorded in the file.
std::unique_ptr<HclFile> ParseHclFile(std::string abs, std::string display, std::string root_path, std::string text);

// The local module sources (`source = "./x"`, `"../y"`) the file's module calls name.
std::vector<std::string> LocalModuleSources(const HclFile& f);

// What every module of one evaluation shares: the options, the scan root,
// the files read so far, and a budget that bounds the work on hostile input.
//
// The budget (docs/security.md, "Size and time budgets"): evaluation steps,
// and the values built or copied (nodes and bytes of text; Terraform values
// are copied wherever they are used, so a copy counts as much as a new
// value). When it runs out, an SM007 note says where, and the evaluation goes
// on reading what is written literally — a reference (var., local., a
// resource, a module output, an iterator) is unknown from there — on a
// reserve of a quarter of the budget; past the reserve every value is
// unknown. One value larger than a value's limit (functions.h) is unknown,
// with an SM007 note at the first place in each file where one is.
class Unit {
 public:
  explicit Unit(const ResolveOptions& opts);
  const ResolveOptions& opts() const { return opts_; }
  // The canonical form of `p` if it exists and lies inside the scan root.
  std::optional<std::filesystem::path> Inside(const std::filesystem::path& p) const;
  std::string RootRelative(const std::filesystem::path& abs) const;
  // A file outside the unit's own list (a called module's, a --var-file),
  // read and parsed once; nullptr if it cannot be read.
  HclFile* File(const std::filesystem::path& canonical);
  // Counts evaluation steps; false once the budget is spent.
  bool Step(long n = 1);
  // Accounts for a value about to be built or copied; false (the value is
  // then unknown) past one value's limit or the budget.
  bool Charge(const ValueSize& size, SourceRange at);
  // The budget is spent: only what is written literally is read.
  bool literal() const { return literal_; }
  // The expression being evaluated, where a bound that stops the evaluation is reported.
  void At(const HclFile* f, SourcePos pos) {
    at_file_ = f;
    at_ = pos;
  }
  // One value too large to keep, at `at` of the expression's file (SM007).
  void TooLarge(SourceRange at);
  // References followed inside references (resource -> local -> resource …):
  // bounded so hostile input cannot exhaust the stack.
  bool Enter() { return ++nesting_ <= kMaxNesting; }
  void Leave() { --nesting_; }
  // Module instances created so far; bounded so nested for_each cannot explode.
  bool NewModule() { return ++modules_ <= kMaxModules; }

  // --var-file files, in order (applied to the root module after its auto-loaded files).
  std::vector<HclFile*> var_files;
  // What evaluation found that Terraform rejects (a module that calls
  // itself), by the display path of the file where it is written.
  std::vector<std::pair<std::string, ParseError>> errors;
  // The root module's directory (path.root, path.cwd).
  std::string root_dir;
  // The linking scope of every resource of this evaluation.
  std::string scope;
  // Where a bound stopped the evaluation (SM007 notes), by display path.
  std::vector<std::pair<std::string, ParseError>> bounds;

 private:
  static constexpr long kMaxSteps = 4'000'000;
  static constexpr size_t kMaxNodes = 250'000;
  static constexpr size_t kMaxBytes = 64u << 20;
  void Spent(const std::string& why);
  static constexpr int kMaxNesting = 128;
  static constexpr int kMaxModules = 512;
  int nesting_ = 0;
  int modules_ = 0;
  const ResolveOptions& opts_;
  std::filesystem::path root_;
  std::map<std::string, std::unique_ptr<HclFile>> files_;
  long steps_ = 0;
  size_t nodes_ = 0, bytes_ = 0;
  long max_steps_ = kMaxSteps;
  size_t max_nodes_ = kMaxNodes, max_bytes_ = kMaxBytes;
  bool literal_ = false;
  const HclFile* at_file_ = nullptr;
  SourcePos at_;
  std::set<std::string> too_large_in_;  // files with a too-large value reported
};

class Module {
 public:
  // `inputs` null: a root module (variables come from var files, --var, defaults).
  // `via`: for a called module, the root-relative path of the file whose module
  // call leads here (labels name it).
  Module(Unit& unit, std::vector<HclFile*> files, std::filesystem::path dir, std::string prefix, std::string via,
         const std::map<std::string, TfVal>* inputs, int depth);
  ~Module();

  // Reads the declarations of every file (and, for a root module, its
  // auto-loaded variable files in Terraform's order).
  void Load();
  // Every resource and data source instance, this module's and its calls'.
  void Resources(std::vector<Resource>* out);
  // The value of one output (module.NAME.OUTPUT seen from the caller).
  TfVal Output(const std::string& name, SourceRange at);

 private:
  struct Decl {
    std::string mode, type, name;
    HclFile* file = nullptr;
    TSNode body{};                    // HCL
    const cfn::Node* json = nullptr;  // .tf.json
    SourceRange range;
  };
  struct Instance {
    std::string suffix;                                // "", "[0]", "[\"key\"]"
    std::vector<std::pair<std::string, TfVal>> scope;  // each / count
  };
  struct Call;
  struct TypeSpec;

  // Declarations.
  void Declaration(HclFile& f, TSNode block);
  void AddDecl(Decl d);
  void LoadJson(HclFile& f);
  std::vector<std::pair<std::string, TfVal>> VarFileValues(HclFile& f);

  // Instances of a resource or module call from its count / for_each.
  std::vector<Instance> Expand(const TfVal* count, const TfVal* for_each);
  const std::vector<Instance>& Instances(const std::string& address);
  const TfVal& Evaluated(const std::string& address, const Instance& inst);
  TfVal MetaArg(const Decl& d, const char* name, bool* present);

  // Values.
  TfVal Variable(const std::string& name, SourceRange at);
  TfVal Local(const std::string& name, SourceRange at);
  TfVal Eval(TSNode n, const HclFile& f, int depth);
  TfVal EvalInner(TSNode n, const HclFile& f, int depth);
  TfVal Chain(TSNode parent, uint32_t first, uint32_t last, const HclFile& f, int depth);
  TfVal Traversal(TSNode parent, uint32_t first, uint32_t* next, const HclFile& f, int depth);
  TfVal Suffix(TfVal base, TSNode s, const HclFile& f, int depth);
  TfVal GetAttr(const TfVal& base, const std::string& name, SourceRange at);
  TfVal Index(const TfVal& base, const TfVal& key, SourceRange at);
  TfVal RefAttr(const TfVal& base, const std::string& attr, SourceRange at);
  TfVal BodyValue(TSNode body, const HclFile& f, int depth, bool resource);
  void DynamicBlock(TSNode block, const HclFile& f, int depth, TfVal* into);
  TfVal FromJson(const cfn::Node& n, const HclFile& f, int depth, bool interpolate);
  TfVal Interpolated(const std::string& text, SourceRange at, int depth, const HclFile& from);
  TfVal Template(TSNode n, const HclFile& f, int depth, bool heredoc);
  TfVal Conditional(TSNode n, const HclFile& f, int depth);
  TfVal Operation(TSNode op, const HclFile& f, int depth);
  TfVal ForExpr(TSNode n, const HclFile& f, int depth);
  TfVal Function(TSNode n, const HclFile& f, int depth);
  TfVal FileFunction(const std::string& name, const std::vector<TfVal>& args, SourceRange at, const HclFile& f);
  TfVal RenderTemplate(const std::string& text, const TfVal* vars, SourceRange at);
  bool ReadModuleFile(const std::string& path, const HclFile& f, std::string* out, std::string* shown);

  // Types of variables (object attributes with optional defaults).
  std::unique_ptr<TypeSpec> ParseType(TSNode n, const HclFile& f, int depth);
  TfVal ApplyType(TfVal v, const TypeSpec& t, int depth);

  // Module calls.
  void LoadCalls();
  TfVal ModuleAttr(const TfVal& base, const std::string& attr, SourceRange at);

  const TfVal* Lookup(const std::string& name);  // the scope's each / count / iterators / for variables
  // How many times the module's files mention `root.name` (var.x, local.y),
  // anywhere: expressions, templates, validations, outputs, module arguments.
  int Uses(std::string_view root, const std::string& name);
  // A value used away from where it was written: every range at the use (the work counts against the budget).
  TfVal Moved(const TfVal& v, SourceRange at);

  Unit& unit_;
  std::vector<HclFile*> files_;
  std::filesystem::path dir_;
  std::string prefix_;
  std::string via_;
  std::string via_path_;  // `via_` as displayed
  SourceRange via_call_;  // the root module's `module` block that leads here
  const std::map<std::string, TfVal>* inputs_;
  int depth_;

  std::map<std::string, Decl> decls_;
  std::map<std::string, std::pair<HclFile*, TSNode>> variables_, locals_, outputs_, module_blocks_;
  std::map<std::string, std::pair<HclFile*, const cfn::Node*>> json_variables_, json_locals_, json_outputs_,
      json_modules_;
  std::map<std::string, TfVal> var_values_;  // from variable files and --var, by precedence
  std::map<std::string, TfVal> variable_memo_, local_memo_;
  std::optional<std::map<std::string, int>> uses_;  // "var.x" / "local.y" -> mentions
  std::map<std::string, std::vector<Instance>> instances_;
  std::map<std::string, TfVal> evaluated_;
  std::set<std::string> evaluating_;
  std::vector<std::pair<std::string, TfVal>> scope_;
  std::map<std::string, std::vector<std::unique_ptr<Call>>> calls_;
  bool calls_loaded_ = false;
  // The directories (canonical) of the modules whose calls lead here, this one's last.
  std::vector<std::string> chain_;
  std::vector<std::unique_ptr<HclFile>> owned_;  // interpolation snippets
};

}  // namespace sagelint::tf

#endif  // SAGELINT_PARSERS_TERRAFORM_EVAL_H_
