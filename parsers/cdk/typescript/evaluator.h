// The TypeScript/JavaScript evaluator of CDK apps (evaluate.cc): its bounds,
// the helpers its files share, and the evaluator itself, whose members are
// defined by meaning in evaluate.cc (life, budgets), modules.cc,
// statements.cc, expressions.cc, members.cc, calls.cc, classes.cc,
// constructs.cc and to_node.cc.
// Internal to parsers/cdk/typescript.
#ifndef SAGELINT_PARSERS_CDK_TYPESCRIPT_EVALUATOR_H_
#define SAGELINT_PARSERS_CDK_TYPESCRIPT_EVALUATOR_H_

#include <tree_sitter/api.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/base/files.h"
#include "parsers/cdk/app.h"
#include "parsers/cdk/typescript/value.h"
#include "parsers/common/node.h"
#include "parsers/common/tree_sitter.h"

namespace sagelint::cdk::typescript {

using K = Value::K;

inline constexpr size_t kMaxFiles = 200;
inline constexpr size_t kMaxFileBytes = 1u << 20;
inline constexpr long kMaxSteps = 500'000;
inline constexpr int kMaxCallDepth = 48;
inline constexpr int kMaxExprDepth = 300;
inline constexpr size_t kMaxLoop = 256;
inline constexpr size_t kMaxString = 2u << 20;  // a computed string longer than this is unknown
// One value handed over: its nesting and its size (a value may refer to
// itself).
inline constexpr int kMaxNodeDepth = 64;
inline constexpr long kMaxNodes = 20'000;

// Past this many names in scope, an `if` on an unknown condition runs its
// branches one after the other without comparing them (the last assignment
// wins).
inline constexpr size_t kMaxMergedNames = 4096;

// Two values the same: the same scalar, or the same object, construct,
// function.
bool SameBinding(const Value &a, const Value &b, int depth = 0);

// The named children of `n`, read once with a cursor: ts_node_named_child(n, i)
// walks the siblings before i, so indexing them in a loop is quadratic in the
// node's width (a 160 KB run of unclosed object literals).
std::vector<TSNode> NamedChildren(TSNode n);

struct File {
  std::string abs;  // canonical absolute path
  std::string text;
  ts::Tree tree;
  int index = 0;
  bool done = false;
  std::shared_ptr<Obj> exports = std::make_shared<Obj>();
  Value module_exports;  // `module.exports = …` (kUndefined when not assigned)
  std::shared_ptr<Scope> scope = std::make_shared<Scope>();
};

// What a running function sees.
struct Frame {
  int file = 0;
  Value self;                   // `this`
  std::shared_ptr<Class> home;  // the class whose method runs (for `super`)
  Value ret;
  bool returned = false;
};

// An unknown value, used at `at` of `file`.
Value Unknown(SourcePos at = {}, int file = kOutsideFile);

// A number as JavaScript prints it.
std::string NumText(double d);
// A number literal's value (`1_000`, `0x10`); false when it is not one.
bool ParseNum(const std::string &s, double *out);
// The text of a string literal node, its escapes decoded.
std::string StringText(TSNode n, std::string_view src);

class Evaluator {
 public:
  explicit Evaluator(const AppInput &in);
  ~Evaluator();
  App Run();

 private:
  std::shared_ptr<Obj> NewObj();
  std::shared_ptr<Scope> NewScope();
  const FileSource &Files() const { return in_.opts ? *in_.opts->files : DiskFiles(); }

  bool Inside(const std::string &canonical) const;

  // ---- budgets (evaluate.cc) ------------------------------------------------

  bool Spent() const { return stopped_; }
  void Stop(int file, SourcePos at, const std::string &why);
  bool Step(TSNode n);

  // ---- files and modules (modules.cc) ---------------------------------------

  std::string_view Src(int file) const { return files_[file]->text; }
  std::string_view T(TSNode n) const { return ts::Text(n, Src(frame_->file)); }

  void LoadModule(int index);
  std::optional<int> ImportFile(const std::string &spec, SourcePos at);
  Value ModuleValue(int index);
  Value ReadJson(const std::string &path, SourcePos at);
  Value ParseJson(const std::string &text, SourcePos at);
  Value FromNode(const cfn::Node &n, int depth);

  // ---- statements (statements.cc) -------------------------------------------

  void Hoist(TSNode block, const std::shared_ptr<Scope> &scope);
  void ExecStatements(TSNode block, const std::shared_ptr<Scope> &scope);
  void Exec(TSNode s, const std::shared_ptr<Scope> &scope);
  void ExecImpl(TSNode s, const std::shared_ptr<Scope> &scope);
  void EnumDeclaration(TSNode s, const std::shared_ptr<Scope> &scope);
  void If(TSNode s, const std::shared_ptr<Scope> &scope);
  // The `if` of a condition not known: `other` is its `else` statement (or a
  // null node).
  void IfUnknown(TSNode s, TSNode other, const std::shared_ptr<Scope> &scope);
  void Loop(TSNode s, const std::shared_ptr<Scope> &scope);
  void ForIn(TSNode s, const std::shared_ptr<Scope> &scope);

  // ---- imports and exports (modules.cc) -------------------------------------

  void Import(TSNode s, const std::shared_ptr<Scope> &scope);

  // A module named only at run time (`require('../lib/' + name)`,
  // `import(name)`): what it defines is not read, and that is said at the
  // call (SM008, rules/SM008.md).
  void Unread(TSNode call, SourcePos at) { app_.unread.push_back({frame_->file, DynamicImport(T(call), at)}); }

  Value Require(const std::string &spec, SourcePos at);
  void Export(TSNode s, const std::shared_ptr<Scope> &scope);

  // ---- patterns (statements.cc) ---------------------------------------------

  void Bind(TSNode pattern, const Value &v, const std::shared_ptr<Scope> &scope);
  std::string KeyName(TSNode key, const std::shared_ptr<Scope> &scope);
  void Assign(TSNode left, const Value &v, const std::shared_ptr<Scope> &scope);

  // ---- branches of an unknown condition (statements.cc) ---------------------

  std::string ConditionText(TSNode cond);
  void SetField(const std::shared_ptr<Obj> &obj, const std::string &k, const Value &v, SourcePos at);
  using Fields = std::map<std::pair<Obj *, std::string>, std::pair<std::shared_ptr<Obj>, std::optional<Value>>>;
  Fields UndoFields(size_t mark);
  void MergeFields(const std::string &cond, const Fields &then_fields, const Fields &else_fields);
  static Value Merged(const std::string &cond, const Value &a, const Value &b);

  // ---- values (expressions.cc, members.cc) ----------------------------------

  static int Truth(const Value &v);  // 1 true, 0 false, -1 unknown

  static bool SameValue(const Value &a, const Value &b);
  Value Str(std::string s, SourcePos at);
  Value Here(Value v, SourcePos at);
  Value Eval(TSNode n, const std::shared_ptr<Scope> &scope);
  Value EvalImpl(TSNode n, const std::shared_ptr<Scope> &scope);
  Value Ternary(TSNode n, const std::shared_ptr<Scope> &scope);
  Value Unary(TSNode n, const std::shared_ptr<Scope> &scope);
  Value AugmentedAssignment(TSNode n, const std::shared_ptr<Scope> &scope);
  Value Identifier(TSNode n, const std::shared_ptr<Scope> &scope);
  Value Template(TSNode n, const std::shared_ptr<Scope> &scope);
  Value Add(const Value &l, const Value &r, SourcePos at);
  Value Binary(TSNode n, const std::shared_ptr<Scope> &scope);
  Value NewObject(bool array, SourcePos at);
  Value ObjectLiteral(TSNode n, const std::shared_ptr<Scope> &scope);
  Value ArrayLiteral(TSNode n, const std::shared_ptr<Scope> &scope);
  Value Member(const Value &o, const std::string &name, bool optional, SourcePos at);
  Value ObjectMember(const Value &o, const std::string &name, SourcePos at);
  Value ConstructMember(const Value &o, const std::string &name, SourcePos at);
  Value CdkMember(const Value &o, const std::string &name, SourcePos at);
  Value StaticMember(const std::shared_ptr<Class> &c, const std::string &name, SourcePos at);
  std::optional<TSNode> FindMethod(const std::shared_ptr<Class> &c, const std::string &name);

  // ---- classes, functions, calls (classes.cc, constructs.cc, calls.cc) ------

  static Value FunctionValue(TSNode node, int file, std::shared_ptr<Scope> scope, Value self = {},
                             std::shared_ptr<Class> home = nullptr);
  Value MakeClass(TSNode n, const std::shared_ptr<Scope> &scope);
  static bool IsStackClass(const Value &c, int depth = 0);
  int StackOf(const Value &scope) const;
  struct Args {
    std::vector<Value> values;
    bool spread_unknown = false;
  };
  Args EvalArgs(TSNode args, const std::shared_ptr<Scope> &scope);
  Value New(TSNode n, const std::shared_ptr<Scope> &scope);
  SourceRange Range(TSNode n) const { return {ts::Start(n), ts::End(n)}; }

  static bool ScopeLike(const Value &v);
  Value NewCdk(const Value &callee, const Args &args, TSNode n);
  Value NodeValue(cfn::Node node, const Value &from, SourcePos at);
  int RecordStack(const Args &args, TSNode n);
  Value Instantiate(const Value &callee, const Args &args, TSNode n);
  void RunConstructor(const std::shared_ptr<Class> &cls, const Value &self, const Args &args, SourcePos at, int depth);
  void BindParams(TSNode params, const Args &args, const std::shared_ptr<Scope> &scope, const Value &self);
  Value Undefined();
  Value CallFunction(const Function &fn, const Args &args, SourcePos at);
  static bool Recorded(std::string_view m);
  Value Call(TSNode n, const std::shared_ptr<Scope> &scope);
  Value MethodCallOn(const Value &m, const Args &args, TSNode n);
  Value StringMethod(const Value &s, const std::string &name, const Args &args, SourcePos at);
  Value ExternalCall(const Value &callee, const Args &args, SourcePos at);

  // ---- handing values over (to_node.cc) -------------------------------------

  void KeepLiteralsWithin(cfn::Node *n) const;
  cfn::Node Literal(const Value &v, cfn::Node n) const;
  cfn::Node ToNode(const Value &v, SourcePos at, int depth);

  // While a branch of an unknown condition runs: its conditions, outermost
  // first, and the object fields written meanwhile with the values they
  // replaced.
  std::vector<std::string> branch_conds_;
  struct FieldWrite {
    std::shared_ptr<Obj> obj;
    std::string key;
    std::optional<Value> before;  // nullopt: the field was not there
  };
  std::vector<FieldWrite> field_writes_;
  const AppInput &in_;
  std::string root_;
  std::string cwd_;
  App app_;
  std::vector<std::unique_ptr<File>> files_;
  std::map<std::string, int> by_path_;
  Frame *frame_ = nullptr;
  int current_stack_ = -1;
  long steps_ = 0;
  int depth_ = 0;
  int call_depth_ = 0;
  int expr_depth_ = 0;
  bool stopped_ = false;
  long node_budget_ = 0;
  std::pair<uint32_t, uint32_t> literal_call_{0, 0};  // the construct call whose props are converted (bytes)
  std::map<std::pair<const void *, std::string>, Value> stack_instances_;  // (scope, id) -> the stack
  int open_loops_ = 0;
  std::vector<std::weak_ptr<Obj>> objects_;
  std::vector<std::weak_ptr<Scope>> scopes_;  // loops whose body runs once for all their iterations
};

}  // namespace sagelint::cdk::typescript

#endif  // SAGELINT_PARSERS_CDK_TYPESCRIPT_EVALUATOR_H_
