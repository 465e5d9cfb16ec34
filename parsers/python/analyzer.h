// The Python / notebook analyzer: a small abstract interpreter that runs a
// file's statements in program order (notebook cells in order), one scope per
// module, function and class body, and asks the libraries it models about the
// calls it meets, with the values their arguments have at that point.
//
//   interp.cc       statements, names and scopes, branches, loops, imports, magics
//   expressions.cc  expressions: names, operators, containers, comprehensions
//   strings.cc      string literals, f-strings, `+`, `%` and str.format(), str methods
//   functions.cc    program functions and classes, their calls, helpers run at the call
//   calls.cc        calls and attributes: Python builtins, dict / list methods, the libraries asked
//   program.cc      whole programs (a CDK app): modules, instances, eager calls
//   sdk.cc          the SageMaker SDK and boto3 library model (SdkModel, sdk_model.h)
//   emit.cc         the SDK model's records -> workloads
//   cdk.cc          the AWS CDK library model and the CDK app evaluator
//
// The interpreter holds Python's state only and knows libraries only through
// `Library`: a call of an imported name, a method call on a value the library
// owns or on one nothing resolves, an attribute of one, a decorator. A file is
// run with the SDK model; a CDK app with the CDK model in front of it.
#ifndef SAGELINT_PARSERS_PYTHON_ANALYZER_H_
#define SAGELINT_PARSERS_PYTHON_ANALYZER_H_

#include <tree_sitter/api.h>

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "linter/model/model.h"
#include "parsers/aws/request.h"
#include "parsers/common/node.h"
#include "parsers/frontend.h"
#include "parsers/python/grammar.h"
#include "parsers/python/notebook.h"
#include "parsers/python/value.h"

namespace sagelint::py {

// Program order of an event: (position in module order, position inside a
// function body analysed for that call site).
struct Order {
  long major = 0;
  long minor = 0;
  bool operator<(const Order& o) const { return major != o.major ? major < o.major : minor < o.minor; }
};

struct Args {
  std::vector<Ev> positional;
  std::vector<std::pair<std::string, Ev>> keywords;  // written and from known `**dict`s
  bool unknown_spread = false;                       // `*args` / `**kwargs` we cannot see into
  TSNode call{};
};

struct Scope;

// The containers and keys of `a[k1][k2]`: containers[0] is `a`.
struct Path {
  std::vector<VId> containers;
  std::vector<VId> keys;
};

struct Param {
  std::string_view name;
  VId default_value = kUnbound;
  enum Kind : uint8_t { kNormal, kStar, kDoubleStar } kind = kNormal;
  bool keyword_only = false;
};

struct CallRecord {
  Args args;
  std::vector<VId> parent_env;  // the defining scope's environment at the call
  Order order;
  int line = 0;
};

struct Function {
  TSNode def{};
  std::string_view name;
  Scope* parent = nullptr;  // the scope the def appears in (original)
  bool method = false;
  std::vector<Param> params;
  std::vector<CallRecord> calls;
  bool too_many_calls = false;
  bool analysed = false;
  int dead_calls = 0;             // calls in branches that cannot run …
  std::string dead_why;           // … and why
  bool expected_to_fail = false;  // defined inside pytest.raises
  Order def_order;
  bool mutation_scanned = false;
  std::set<std::string_view> mutated;  // names whose dict / list the body mutates
  int inlined = 0;                     // calls at which the body ran as the call was met (Inline)
  int remote = -1;                     // a function a library took over (Library::Decorator): its handle
};

struct Scope {
  enum Kind : uint8_t { kModule, kFunction, kClass } kind = kModule;
  Scope* parent = nullptr;  // enclosing scope for reads (class bodies are skipped by functions)
  Scope* origin = nullptr;  // for a snapshot of a scope: the scope it copies
  std::unordered_map<std::string_view, int> slot_of;
  std::vector<VId> env;
  std::vector<std::string> star_modules;  // `from sagemaker.x import *`
  // Loop tracking: first access of each slot inside the innermost loop body.
  std::vector<uint8_t>* loop_access = nullptr;
};

inline constexpr std::string_view kUnknownText = aws::kUnknownMarker;
inline constexpr long kMaxSteps = 3'000'000;  // evaluation steps per file
inline constexpr int kMaxEvalDepth = 160;     // nested statements and expressions (recursion guard)

// Shared by the interpreter's files.
std::string Shorten(std::string_view text, size_t max);  // whitespace collapsed, cut to `max` (interp.cc)
bool IsInteger(const std::string& s);                    // an optional `-` and digits (expressions.cc)

class Analyzer;

// A library the interpreter models. Each hook returns true when it handled
// the operation (its result in `*result`); the interpreter asks the models in
// order and falls back to unknown.
class Library {
 public:
  virtual ~Library() = default;
  // A call of `qualified` (an imported name: "aws_cdk.aws_iam.Role", "sagemaker.estimator.Estimator.attach").
  virtual bool Call(Analyzer& a, const std::string& qualified, TSNode call, Args& args, VId* result) = 0;
  // `receiver.method(args)` where `receiver` is a value a model made (kLibrary, not a Role::kToken).
  virtual bool Method(Analyzer& a, VId receiver, std::string_view method, TSNode call, Args& args, VId* result) = 0;
  // `object.name` where `object` is a value the model made (a library value, or
  // an opaque value with the model's own tag), or an instance of a program
  // class derived from one of the model's classes.
  virtual bool Attribute(Analyzer& a, VId object, std::string_view name, TSNode node, VId* result) = 0;
  // `receiver.method(args)` where no model owns `receiver` and the interpreter
  // cannot resolve it (an unknown value, a parameter, an opaque value a model
  // made): a model may still read the call (a delete, a request on a client
  // it cannot trace).
  virtual bool Unresolved(Analyzer& a, VId receiver, std::string_view method, TSNode call, Args& args, VId* result) {
    (void)a, (void)receiver, (void)method, (void)call, (void)args, (void)result;
    return false;
  }
  // `object.name` read as a value, not called there (`fn = client.delete_endpoint`),
  // where `object` is a value the model made: its result (the method as a value)
  // when the model has one; false reads the attribute (Attribute above).
  virtual bool Uncalled(Analyzer& a, VId object, std::string_view name, TSNode node, VId* result) {
    (void)a, (void)object, (void)name, (void)node, (void)result;
    return false;
  }
  // A decorator (its value, `at` its expression) on a function being defined: a
  // model that takes the function over (the SDK's `@remote`: a job per call) says
  // which of its objects stands for it in `*handle` (Function::remote); the
  // function defined, `Decorated` gets its index.
  virtual bool Decorator(Analyzer& a, VId decorator, TSNode at, int* handle) {
    (void)a, (void)decorator, (void)at, (void)handle;
    return false;
  }
  virtual void Decorated(Analyzer& a, int handle, int function) { (void)a, (void)handle, (void)function; }
  // `object.name = value` where `object` is an object a model made (kLibrary, Role::kObject).
  virtual bool SetAttribute(Analyzer& a, VId object, const std::string& name, Ev value) {
    (void)a, (void)object, (void)name, (void)value;
    return false;
  }
  // The qualified name `name` stands for under `from module import *` when the
  // model knows the module exports it; empty when not.
  virtual std::string StarName(std::string_view module, std::string_view name) {
    (void)module, (void)name;
    return {};
  }
  // A name the model's workloads cannot be made without (the interpreter runs the
  // code that mentions one; docs/python.md), and the model's own qualified names
  // (a local alias of one counts as relevant).
  virtual bool RelevantName(std::string_view name) {
    (void)name;
    return false;
  }
  virtual bool Owns(std::string_view qualified) {
    (void)qualified;
    return false;
  }
  // A call of a value the model made that is not a class or a function (a
  // method taken as a value: `fn = client.delete_endpoint; fn(...)`).
  virtual bool CallValue(Analyzer& a, VId callee, TSNode call, Args& args, VId* result) {
    (void)a, (void)callee, (void)call, (void)args, (void)result;
    return false;
  }
  // `v` is a method of the model's taken as a value (Uncalled), which CallValue
  // calls: a `for` over items holding one (`(client.method, "Key", value)`)
  // runs its body per item, the body calling it with that item's other values.
  virtual bool MethodValue(Analyzer& a, VId v) {
    (void)a, (void)v;
    return false;
  }
  // `receiver.method(args)` where `receiver` is one of several values (`x = a if c else b`).
  virtual bool Alternatives(Analyzer& a, VId receiver, std::string_view method, TSNode call, Args& args, VId* result) {
    (void)a, (void)receiver, (void)method, (void)call, (void)args, (void)result;
    return false;
  }
  // A call of program function `function` that a model took over (Function::remote >= 0).
  virtual bool CallFunction(Analyzer& a, int function, TSNode call, Args& args, VId* result) {
    (void)a, (void)function, (void)call, (void)args, (void)result;
    return false;
  }
  // A string built of `pieces` (an f-string's, or the two sides of `+`) when one is the model's value.
  virtual bool Join(Analyzer& a, const std::vector<Ev>& pieces, VId* result) {
    (void)a, (void)pieces, (void)result;
    return false;
  }
  // An instance of a program class whose bases include the model's class
  // `qualified` is being constructed (`call`) / its constructor has returned.
  virtual void EnterInstance(Analyzer& a, int instance, const std::string& qualified, TSNode call, Args& args) {
    (void)a, (void)instance, (void)qualified, (void)call, (void)args;
  }
  virtual void LeaveInstance(Analyzer& a, int instance) { (void)a, (void)instance; }
  // The link a value known only as a name shared with other notebooks (`%store`,
  // a file; Analyzer::SharedValue) carries in strings built from it; empty: none.
  virtual std::string SharedLink(std::string_view name) {
    (void)name;
    return {};
  }
  // The link a string built from the model's value `v` carries (a key the
  // model's workloads match by); empty: `v` is not the model's, or links nothing.
  virtual std::string Link(Analyzer& a, VId v) {
    (void)a, (void)v;
    return {};
  }
  // A `for` over an opaque value the model made: the value for each of its items.
  virtual bool Each(Analyzer& a, VId iterable, VId* element) {
    (void)a, (void)iterable, (void)element;
    return false;
  }
  // `container[key]` where `container` is an opaque value the model made.
  virtual bool Item(Analyzer& a, VId container, VId key, VId* result) {
    (void)a, (void)container, (void)key, (void)result;
    return false;
  }
  // A same-file helper run (`run`, Analyzer::Inline) returned `result` to the
  // assignment of `target` (`m = build_model(...)`).
  virtual void Returned(Analyzer& a, VId result, int run, const std::string& target) {
    (void)a, (void)result, (void)run, (void)target;
  }
  // A call in a branch that cannot run, and why: a model may record what it
  // would have done (never counted).
  virtual void DeadCall(Analyzer& a, TSNode call, const std::string& why) { (void)a, (void)call, (void)why; }
  // A lambda whose body calls `method` on something: true when the model wants
  // that call read where the lambda is made (it runs later, with unknown arguments).
  virtual bool ReadNow(std::string_view method) {
    (void)method;
    return false;
  }
  // Code the interpreter does not run (a pytest fixture in a conftest.py)
  // returns `qualified(...)`: true when that call makes an instance of the
  // model's class, which `Made` then stands for.
  virtual bool Makes(std::string_view qualified) {
    (void)qualified;
    return false;
  }
  virtual bool Made(Analyzer& a, const std::string& qualified, VId* result) {
    (void)a, (void)qualified, (void)result;
    return false;
  }
};

// Program modules beyond the file being read (a CDK app's imports): the
// evaluator that runs a whole program supplies them.
struct ModuleFile {
  int file = -1;         // the program's index of the file
  std::string_view src;  // its text (kept alive by the finder)
  TSNode root{};         // its parsed tree (kept alive by the finder)
};
class ModuleFinder {
 public:
  virtual ~ModuleFinder() = default;
  // The file of module `dotted` imported from file `from_file` (`level` leading
  // dots for a relative import), read and parsed; nullopt when it is not a
  // module of the program (a library, a file outside the root, a test file).
  virtual std::optional<ModuleFile> Find(int from_file, std::string_view dotted, int level) = 0;
};

struct ClassDef {
  TSNode def{};
  std::string_view name;
  Scope* scope = nullptr;  // the class body's scope: its attributes and methods
  std::vector<VId> bases;  // as evaluated (kClass, kQual, …)
  bool dataclass = false;
  std::vector<std::pair<std::string_view, VId>> fields;  // dataclass fields in order, default or kUnbound
};

struct Instance {
  int cls = -1;
  std::vector<std::pair<std::string, Ev>> attrs;  // `self.x = …`
  VId value = kUnknown;
};

struct Module {
  int file = -1;
  Scope* scope = nullptr;
  std::string_view src;
  TSNode root{};
  std::string dotted;
};

class Analyzer {
 public:
  Analyzer(const SourceFile& file, std::string_view src, const NotebookSource* nb, FileResult* out);
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;
  // Runs `root` (a file) with the models `libraries`, asked in order.
  void Run(TSNode root, std::vector<Library*> libraries);

  // ---- whole programs (a CDK app) ---------------------------------------------
  // Runs `root` (file 0 of a program) eagerly: every call of a program
  // function runs its body at the call with the call's arguments, classes are
  // instantiated (constructor, `self.x`, `super()`, dataclass fields), imports
  // of the program's modules run those modules once through `finder`, and
  // the libraries are asked in order. No workloads are emitted; the models
  // record what they need. Bounds: evaluation steps, call depth, modules.
  void RunProgram(TSNode root, ModuleFinder* finder, std::vector<Library*> libraries);
  // The program file a node belongs to (0 when not a program run).
  int FileOf(TSNode n) const;
  // The text of `n` in whichever program file holds it.
  std::string_view TextOf(TSNode n) const { return T(n); }
  // Instances and classes of the running program (for library models).
  std::vector<ClassDef> classes_;
  std::vector<Instance> instances_;
  std::vector<Module> modules_;
  // Where evaluation stopped at a bound in a program run: file and position.
  std::vector<std::pair<int, ParseError>> program_bounds_;
  // A value of the library model `owner`: what it is to the interpreter
  // (`role`), the model's own tag and index.
  VId LibraryValue(const Library* owner, Role role, std::string_view tag, int ref) {
    Value v;
    v.kind = VK::kLibrary;
    v.owner = owner;
    v.role = role;
    v.text = std::string(tag);
    v.ref = ref;
    return store_.New(std::move(v));
  }
  // The program classes `cls` derives from, itself first (depth first, each once),
  // and the library classes (kQual names) among their bases.
  std::vector<int> Mro(int cls) const;
  std::vector<std::string> LibraryBases(int cls) const;

  // ---- the interpreter's state (the libraries read it too) ------------------
  const Grammar& g_;
  const SourceFile& file_;
  std::string_view src_;
  const NotebookSource* nb_;
  FileResult* out_;
  Store store_;

  std::deque<Scope> scopes_;
  std::vector<Function> functions_;
  Scope* scope_ = nullptr;                                 // current
  std::unordered_map<std::string_view, int> call_counts_;  // syntactic `name(...)` calls
  std::unordered_map<std::string_view, int> other_uses_;   // other uses of the name
  std::vector<uint32_t> relevant_at_;                      // byte offsets of names a library finds relevant (sorted)
  bool Relevant(TSNode n) const;                           // whether the code of `n` mentions one
  bool RelevantName(std::string_view name) const;          // Library::RelevantName of any library
  std::set<std::string_view> library_aliases_;             // other local names of the libraries' imported names
  void NoteLibraryAlias(std::string_view local, std::string_view qualified);
  Order order_;
  long minor_base_ = 0;
  size_t snapshot_slots_ = 0;
  bool in_function_ = false;
  int expect_failure_ = 0;                           // depth of pytest.raises / assertRaises blocks
  int depth_ = 0;                                    // recursion guard
  long steps_ = 0;                                   // evaluation budget
  std::string workflow_;                             // notebooks: NotebookWorkflow(path), the scope of shared names
  std::vector<std::pair<std::string, VId>> stored_;  // `%store NAME`: the value NAME held
  bool restore_all_ = false;                         // a bare `%store -r` ran

  // ---- program runs (RunProgram) ------------------------------------------------
  bool eager_ = false;   // a program run: calls run at the call
  bool halted_ = false;  // a program run stopped at a bound: nothing more runs
  ModuleFinder* finder_ = nullptr;
  std::vector<Library*> libraries_;  // the models asked, in order (Run, RunProgram)
  int cur_file_ = 0;
  std::vector<std::pair<const void*, std::pair<int, std::string_view>>> trees_;  // tree -> file, text
  // While a method runs: the class it is defined in and the instance (for super()).
  std::vector<std::pair<int, VId>> self_stack_;
  int invoke_depth_ = 0;
  // While a branch of an `if` on an unknown condition runs: the conditions it
  // runs under ("`x` is true"), outermost first (a construct made there is
  // conditional), and the instance attributes written meanwhile with the value
  // each had before, so the other branch starts from them and ExecIf merges
  // the two (docs/architecture.md "CDK apps").
  std::vector<std::string> branch_conds_;
  struct AttrWrite {
    int instance = -1;
    std::string attr;
    std::optional<Ev> before;  // nullopt: the attribute was not set
  };
  std::vector<AttrWrite> attr_writes_;
  // Undoes the attribute writes logged since `mark` and returns the values they
  // had left (nullopt: removed), by (instance, attribute).
  std::map<std::pair<int, std::string>, std::optional<Ev>> UndoAttributes(size_t mark);
  void SetAttribute(int instance, const std::string& attr, std::optional<Ev> v);
  void Halt(TSNode at, const std::string& why);
  int LoadModule(int from_file, std::string_view dotted, int level);
  bool ImportProgram(TSNode n);  // a program run's import: false when it names no program module
  VId Invoke(int fn, VId self, Args& args, TSNode call);
  VId Instantiate(int cls, Args& args, TSNode call);
  VId InstanceAttribute(VId object, std::string_view name, TSNode node);
  VId InstanceMethod(VId object, std::string_view method, TSNode call, Args& args);
  // An attribute of program class `cls` (through its bases), from position `from` of its MRO on.
  VId ClassAttribute(int cls, std::string_view name, size_t from = 0);
  VId ModuleAttribute(int module, std::string_view name);
  int FunctionOf(VId v) const;  // a kFunction value's function, else -1

  // ---- pytest fixtures (fixtures.cc) ---------------------------------------------
  const ResolveOptions* opts_ = nullptr;  // where other files are read (conftest.py); null: none
  struct FixtureReturn {
    VK kind = VK::kUnknown;  // kStr, kNum, kBool, kNone, or kQual: an instance a library makes (`text`: the call)
    std::string text;
    int line = 0;
  };
  struct Fixture {
    std::string where;  // the file that defines it
    bool known = true;  // every return / yield gives a literal or a library instance (Library::Makes)
    std::vector<FixtureReturn> returns;
  };
  using FixtureTable = std::map<std::string, Fixture, std::less<>>;
  FixtureTable ReadFixtures(TSNode root, std::string_view src, const std::string& where) const;
  bool IsTestFunction(const Function& f) const;
  void LoadConftests();
  VId FixtureValue(std::string_view name);  // kUnknown unless known
  bool conftests_loaded_ = false;
  std::optional<FixtureTable> own_fixtures_;
  std::vector<FixtureTable> conftests_;  // nearest directory first

  // ---- past the evaluation budget (SM007) -------------------------------------
  // The rest of the file is read in literal mode: statements that name nothing
  // relevant are skipped, branches and loops run once without merging, and
  // names bound before the stop are unknown (imports and library objects kept), so
  // reading stays linear in what is left.
  bool literal_ = false;
  bool prescanned_ = false;
  TSNode last_stmt_{};  // the statement most recently started: where the budget ran out
  bool OverBudget() const;
  void EnterLiteralMode();

  // ---- same-file helpers run at their call (one call deep) ---------------------
  int inlining_ = 0;
  TSNode inline_call_{};
  std::string inline_helper_;
  std::vector<Ev>* returns_ = nullptr;  // what the running helper returns
  // Per helper run: the values that came from the arguments the call passes
  // (and the values computed from them, or under a branch they chose).
  std::vector<std::unordered_set<VId>> run_args_;
  int run_ = -1;           // the helper run under way (an index of run_args_), else -1
  bool arg_read_ = false;  // the expression being evaluated read such a value
  int arg_control_ = 0;    // branches and loops under way that such a value chose
  void SeedArgument(VId v, int depth = 0);
  VId EvalChoosing(TSNode n, int* controlled);
  bool Inlinable(int fn) const;
  VId Inline(int fn, Args& args, TSNode call);
  void BindParams(const Function& f, const Args& args, VId self, bool spreads);
  void BindParameter(std::string_view name, VId v);
  std::string target_;         // the variable the expression being evaluated is assigned to
  std::string pending_var_;    // that variable, for the object the current call creates
  Path receiver_path_;         // the receiver of the method call being dispatched
  std::string dead_function_;  // while analysing a function that never runs: why (for its deletes)

  // ---- positions -----------------------------------------------------------
  // The named children of `n` (one cursor walk: indexed access is quadratic).
  std::vector<TSNode> Kids(TSNode n);
  TSTreeCursor cursor_{};
  bool cursor_ready_ = false;
  SourceRange R(TSNode n) const;
  std::string_view T(TSNode n) const;
  int Line(TSNode n) const;
  const Value& V(VId v) const { return store_[v]; }

  // ---- interp.cc -------------------------------------------------------------
  void Prescan(TSNode root);
  void LexicalPass();
  bool ExecBlockImpl(TSNode block);
  bool Exec(TSNode stmt);  // false when control cannot fall through (return, raise…)
  void ExecAssignment(TSNode n);
  void ExecAugmented(TSNode n);
  void ExecDelete(TSNode n);
  bool ExecIf(TSNode n);
  bool ExecLoop(TSNode n, bool for_loop);
  void FinishLoop(const std::vector<VId>& before, const std::vector<uint8_t>& access, bool runs);
  bool ExecTry(TSNode n);
  bool ExecWith(TSNode n);
  bool ExecMatch(TSNode n);
  void Import(TSNode n);
  int DefineFunction(TSNode def, TSNode decorated);
  void DefineClass(TSNode def, TSNode decorated = {});
  void ExecFunctions();
  void AnalyseFunction(int id);
  bool MutatesParam(int fn, std::string_view name);
  void RecordFunctionCall(int fn, Args& args, TSNode call);
  VId Eval(TSNode n);
  VId EvalNode(TSNode n);
  // EvalNode's larger cases.
  VId EvalName(TSNode n);
  VId EvalAttribute(TSNode n);
  VId EvalSubscript(TSNode n);
  VId EvalDict(TSNode n);
  VId EvalList(TSNode n);
  VId EvalBoolean(TSNode n);
  VId EvalConditional(TSNode n);
  VId EvalLambda(TSNode n);
  Ev EvalEv(TSNode n) { return Ev{Eval(n), n}; }
  Args EvalArgs(TSNode call_or_list, bool is_list);
  void SpreadInto(VId dict, Args& a);
  VId Lookup(std::string_view name);
  VId GlobalValue(std::string_view name);  // `globals()[name]`
  void Bind(std::string_view name, VId v);
  void Assign(TSNode target, VId v, TSNode value_node);
  int Slot(Scope* s, std::string_view name);
  // A new scope of `kind` reading through `parent`, made current; returns the one it replaces.
  Scope* EnterScope(Scope::Kind kind, Scope* parent);
  void Tick() {
    if (in_function_)
      ++order_.minor;
    else
      ++order_.major;
  }
  std::string CondText(TSNode cond) const;
  std::vector<VId> MergeEnvs(const std::vector<std::vector<VId>>& envs, const std::vector<std::string>& conds);
  VId MergeValues(const std::vector<VId>& vals, const std::vector<std::string>& conds,
                  const std::vector<TSNode>& at = {});
  void Rebind(VId old_v, VId new_v);  // a mutated dict / list: every alias sees the change
  VId EvalPath(TSNode n, Path* path);
  void Propagate(const Path& path, VId updated);  // writes a mutated inner container back
  // A mutation of the receiver of the method being called (through its path when it has one).
  void Update(VId receiver, VId updated) {
    if (!receiver_path_.containers.empty() && receiver_path_.containers.back() == receiver) {
      Propagate(receiver_path_, updated);
    } else {
      Rebind(receiver, updated);
    }
  }
  VId Concat(VId a, VId b);
  VId Arith(std::string_view op, VId a, VId b);
  VId Format(VId fmt, const Args& args);
  VId Percent(VId fmt, VId args);
  VId Subscript(VId container, VId key);
  VId DictSet(VId dict, const std::string& key, Ev value);
  VId DictDel(VId dict, const std::string& key);
  VId DictUpdate(VId dict, VId other, const Args* kw);
  VId Incomplete(VId container);
  VId StringValue(TSNode n);
  VId NumberValue(TSNode n);
  VId Binary(TSNode n);
  VId Compare(TSNode n);
  VId Comprehension(TSNode n);
  // The calls in a branch that cannot run: a helper called there notes why, the
  // libraries see each call of a method (Library::DeadCall).
  void DeadCalls(TSNode block, const std::string& why);
  std::string LinkOf(VId v);  // the link a string built from `v` carries (strings.cc)
  // A library value whose strings its library builds (Role::kValue, Library::Join).
  bool Joined(VId v) const { return store_.Kind(v) == VK::kLibrary && store_[v].role == Role::kValue; }
  bool EachOf(VId iterable, VId* element);  // Library::Each for an opaque value (expressions.cc)
  VId PureEval(TSNode n);                   // names, attributes and plain strings only: no call runs
  void Magic(TSNode pass_stmt);             // a line IPython syntax replaced (`%store`)

  // ---- calls.cc, strings.cc (str methods) -------------------------------------
  VId Call(TSNode call);
  // A call of an imported name: Python's builtins, else the libraries asked in order.
  VId CallQualified(const std::string& q, TSNode call, Args& args);
  VId PythonBuiltin(const std::string& q, Args& args);  // kUnbound: not a builtin it computes
  VId CallMethod(VId receiver, std::string_view method, TSNode call, Args& args);
  VId DictMethod(VId receiver, std::string_view method, TSNode call, Args& args);
  VId ListMethod(VId receiver, std::string_view method, Args& args);
  VId StrMethod(VId receiver, std::string_view method, Args& args);
  VId Attribute(VId object, std::string_view name, TSNode node);

  bool ExpectsFailure(TSNode with_item_value);
  bool TryExpectsFailure(TSNode try_body);  // the body ends by failing a test
  VId SharedValue(const std::string& name);
  std::string ResolveStarImport(std::string_view name) const;  // the libraries' StarName, innermost scope first

  // ---- literal.cc: literal sites for fixes (README "Fixes") ------------------------------
  TSNode root_{};
  // The call whose arguments a library reads (SdkModel::ToVal): a value written in it as a literal
  // (or as a constant read only there) gets its literal site. Null: none.
  mutable TSNode lit_call_{};
  struct ConstantSite {
    int mentions = 0;     // the name as a variable anywhere in the file
    int assignments = 0;  // module-level `name = …` statements
    TSNode literal{};     // the value of the last of them
  };
  mutable std::optional<std::unordered_map<std::string_view, ConstantSite>> constants_;
  bool PlainLiteral(TSNode token, const Value& value) const;
  TSNode ConstantLiteral(TSNode read) const;
  // A token's range as stored (a notebook's: in the .ipynb text, escapes
  // counted); invalid where it cannot be placed exactly.
  SourceRange TokenRange(TSNode token) const;
  SourceRange LiteralSite(const Ev& e) const;
};

}  // namespace sagelint::py

#endif  // SAGELINT_PARSERS_PYTHON_ANALYZER_H_
