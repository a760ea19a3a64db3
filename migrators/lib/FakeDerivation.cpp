#include "FakeDerivation.h"

#include "LocalWrites.h"

#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <map>

namespace opmig::migrate {

using namespace clang;

namespace {

/// One expression, spelled in both target languages.
struct Code {
  std::string Py;
  std::string Cpp;
};

/// Tensor options as keyword arguments (Python) and as an expression (C++).
struct Options {
  std::string Dtype;  ///< Python; empty when not set.
  std::string Device; ///< Python; empty when not set.
  std::string Cpp;

  std::string keywords() const {
    std::string Text;
    if (!Dtype.empty())
      Text += ", dtype=" + Dtype;
    if (!Device.empty())
      Text += ", device=" + Device;
    return Text;
  }
};

llvm::Error failure(const llvm::Twine &Message) {
  return llvm::make_error<llvm::StringError>(Message, llvm::inconvertibleErrorCode());
}

template <typename Range> std::vector<const Expr *> writtenArgs(Range Args) {
  std::vector<const Expr *> Written;
  for (const Expr *Arg : Args)
    if (!isa<CXXDefaultArgExpr>(Arg))
      Written.push_back(Arg);
  return Written;
}

/// Looks through what does not change a value: implicit conversions,
/// temporaries, parentheses, explicit casts, copies and moves, and
/// conversions from an initializer list (`at::IntArrayRef` from `{a, b}`).
const Expr *strip(const Expr *E) {
  while (true) {
    const Expr *Next = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *List = dyn_cast<CXXStdInitializerListExpr>(Next)) {
      Next = List->getSubExpr();
    } else if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Next)) {
      Next = Cast->getSubExpr();
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next)) {
      std::vector<const Expr *> Args = writtenArgs(Construct->arguments());
      bool FromList = Args.size() == 1 && isa<CXXStdInitializerListExpr>(Args[0]->IgnoreImplicit());
      if (Args.size() == 1 && (!Construct->isListInitialization() || FromList ||
                               Construct->getConstructor()->isCopyOrMoveConstructor()))
        Next = Args[0];
    }
    if (Next == E)
      return E;
    E = Next;
  }
}

/// A method call with its object (looked through, so a tensor converted to
/// `at::TensorBase`, where ATen declares most tensor methods, is a tensor)
/// and its arguments as written.
struct MethodCall {
  const Expr *Object = nullptr;
  llvm::StringRef Method;
  std::string Class; ///< Qualified name of the class declaring the method.
  std::vector<const Expr *> Args;

  bool onTensor() const { return isTensorType(Object->getType()); }
  bool is(llvm::StringRef Name, size_t ArgCount) const {
    return Method == Name && Args.size() == ArgCount;
  }
};

std::optional<MethodCall> methodCall(const Expr *E) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(strip(E));
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  // Operators and conversions have no identifier.
  if (!Method || !Method->getIdentifier())
    return std::nullopt;
  return MethodCall{strip(Call->getImplicitObjectArgument()), Method->getName(),
                    qualifiedName(*Method->getParent()), writtenArgs(Call->arguments())};
}

/// `torch.<name>` of an ATen dtype enumerator.
std::optional<std::string> torchDtype(llvm::StringRef Enumerator) {
  return llvm::StringSwitch<std::optional<std::string>>(Enumerator)
      .Case("Byte", "torch.uint8")
      .Case("Char", "torch.int8")
      .Case("Short", "torch.int16")
      .Case("Int", "torch.int32")
      .Case("Long", "torch.int64")
      .Case("Half", "torch.float16")
      .Case("Float", "torch.float32")
      .Case("Double", "torch.float64")
      .Case("ComplexHalf", "torch.complex32")
      .Case("ComplexFloat", "torch.complex64")
      .Case("ComplexDouble", "torch.complex128")
      .Case("Bool", "torch.bool")
      .Case("BFloat16", "torch.bfloat16")
      .Case("Float8_e5m2", "torch.float8_e5m2")
      .Case("Float8_e4m3fn", "torch.float8_e4m3fn")
      .Case("Float8_e5m2fnuz", "torch.float8_e5m2fnuz")
      .Case("Float8_e4m3fnuz", "torch.float8_e4m3fnuz")
      .Case("UInt16", "torch.uint16")
      .Case("UInt32", "torch.uint32")
      .Case("UInt64", "torch.uint64")
      .Default(std::nullopt);
}

/// The allocation functions a fake can mirror, without namespace.
enum class AllocKind { Factory, Like, None };

AllocKind allocKind(const FunctionDecl &Callee) {
  if (isa<CXXMethodDecl>(Callee))
    return AllocKind::None;
  std::string Name = qualifiedName(Callee);
  llvm::StringRef Base(Name);
  if (!Base.consume_front("at::") && !Base.consume_front("torch::"))
    return AllocKind::None;
  if (llvm::is_contained({"empty", "zeros", "ones"}, Base))
    return AllocKind::Factory;
  if (llvm::is_contained({"empty_like", "zeros_like", "ones_like"}, Base))
    return AllocKind::Like;
  return AllocKind::None;
}

/// Return statements of the function itself, not of lambdas or local classes.
class ReturnCollector : public ConstDynamicRecursiveASTVisitor {
public:
  bool TraverseLambdaExpr(const LambdaExpr *) override { return true; }
  bool TraverseDecl(const Decl *D) override {
    if (isa_and_nonnull<FunctionDecl, CXXRecordDecl, BlockDecl>(D))
      return true;
    return ConstDynamicRecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitReturnStmt(const ReturnStmt *Return) override {
    Returns.push_back(Return);
    return true;
  }
  std::vector<const ReturnStmt *> Returns;
};

class FakeBuilder {
public:
  FakeBuilder(const FakeInput &Input, ASTContext &Ctx)
      : Input(Input), Ctx(Ctx), SM(Ctx.getSourceManager()), Body(*Input.Function->getBody()) {
    // `x = x.reshape(...)`: past that line `x` is not the caller's tensor,
    // so no shape of the fake may be read off it there.
    for (const ParmVarDecl *Param : Input.Function->parameters())
      if (const Stmt *Assignment = firstAssignment(*Param, Body))
        ReboundAt[Param] = Assignment;
  }

  FakeResult build();

private:
  // Outputs: the values each return statement lists.
  llvm::Expected<std::vector<const Expr *>> outputsOf(const ReturnStmt &Return);
  llvm::Expected<std::vector<const Expr *>> listedOutputs(const Expr *E, const ReturnStmt &Return);
  std::optional<unsigned> returnedParam(const Expr *E) const;
  std::vector<std::optional<unsigned>>
  returnedParams(const std::vector<std::vector<const Expr *>> &Listed) const;
  llvm::Expected<Code> renderFake(const std::vector<const ReturnStmt *> &Returns,
                                  const std::vector<std::vector<const Expr *>> &Listed);
  llvm::Expected<Code> describeOutput(const Expr *E, const ReturnStmt &Return);
  llvm::Expected<const Expr *> tensorDefinition(const VarDecl &Var, const ReturnStmt &Return);

  // Allocations and their arguments; `Subject` names what is described.
  llvm::Expected<Code> describeAllocation(const Expr *E, const std::string &Subject);
  llvm::Expected<Code> describeShape(const Expr *E, const std::string &Subject);
  llvm::Expected<Code> describeDim(const Expr *E, const std::string &Subject);
  llvm::Expected<Options> describeOptions(const Expr *E, const std::string &Subject);
  llvm::Expected<Code> describeDtype(const Expr *E, const std::string &Subject);
  llvm::Expected<Code> describeDevice(const Expr *E, const std::string &Subject);
  llvm::Expected<Code> tensorOperand(const Expr *E, const std::string &Subject, bool KeepLayout);
  llvm::Expected<const Expr *> localValue(const Expr *E, const std::string &Subject);

  /// The parameter `E` names where it is still the caller's tensor.
  const ParmVarDecl *paramOf(const Expr *E) const;
  bool pastRebinding(const DeclRefExpr &Ref, const ParmVarDecl &Param) const;
  llvm::Expected<Code> optionsSource(const Expr *E, const std::string &Subject);
  bool onlyOptionsPreserving(const VarDecl &Var, const Expr *Except) const;
  const VarDecl *localOf(const Expr *E) const;
  std::optional<int64_t> constInt(const Expr *E) const;
  unsigned lineOf(const Stmt *S) const { return SM.getExpansionLineNumber(S->getBeginLoc()); }
  std::string sourceText(const Expr *E) const;
  std::string producerText(const Expr *E) const;
  std::string renderResult(const std::vector<Code> &Outputs, bool Python) const;

  const FakeInput &Input;
  ASTContext &Ctx;
  const SourceManager &SM;
  const Stmt &Body;
  /// Parameters the body assigns, with their first assignment.
  std::map<const ParmVarDecl *, const Stmt *> ReboundAt;
};

FakeResult FakeBuilder::build() {
  FakeResult Result;
  if (Input.Returns.Form == ReturnForm::Void) {
    Result.Derived = true;
    Result.Python = "None";
    return Result;
  }
  Result.ReturnedParams.resize(Input.Returns.Elements.size());
  ReturnCollector Collector;
  Collector.TraverseStmt(&Body);
  if (Collector.Returns.empty()) {
    Result.Reason = Input.OpName + " has no return statement";
    return Result;
  }
  std::vector<std::vector<const Expr *>> Listed;
  for (const ReturnStmt *Return : Collector.Returns) {
    llvm::Expected<std::vector<const Expr *>> Outputs = outputsOf(*Return);
    if (!Outputs) {
      Result.Reason = llvm::toString(Outputs.takeError());
      return Result;
    }
    Listed.push_back(std::move(*Outputs));
  }
  if (Input.Returns.Form != ReturnForm::List)
    Result.ReturnedParams = returnedParams(Listed);
  llvm::Expected<Code> Fake = renderFake(Collector.Returns, Listed);
  if (!Fake) {
    Result.Reason = llvm::toString(Fake.takeError());
    return Result;
  }
  Result.Derived = true;
  Result.Python = std::move(Fake->Py);
  Result.Cpp = std::move(Fake->Cpp);
  return Result;
}

/// Per output, the mutable parameter that every return statement lists there.
std::vector<std::optional<unsigned>>
FakeBuilder::returnedParams(const std::vector<std::vector<const Expr *>> &Listed) const {
  std::vector<std::optional<unsigned>> Params(Input.Returns.Elements.size());
  for (size_t I = 0; I < Params.size(); ++I) {
    std::optional<unsigned> First = returnedParam(Listed.front()[I]);
    if (llvm::all_of(Listed,
                     [&](const auto &Outputs) { return returnedParam(Outputs[I]) == First; }))
      Params[I] = First;
  }
  return Params;
}

/// The fake's result, provided every output is derivable and every return
/// statement yields the same one.
llvm::Expected<Code> FakeBuilder::renderFake(const std::vector<const ReturnStmt *> &Returns,
                                             const std::vector<std::vector<const Expr *>> &Listed) {
  ReturnForm Form = Input.Returns.Form;
  for (size_t I = 0; I < Input.Returns.Elements.size(); ++I)
    if (!Input.Returns.Elements[I].IsTensor && Form != ReturnForm::List)
      return failure("output " + std::to_string(I + 1) + " of " + Input.OpName + " has type `" +
                     Input.Returns.Elements[I].Schema + "`; only tensor outputs are derived");
  std::vector<Code> Rendered;
  for (size_t R = 0; R < Listed.size(); ++R) {
    std::vector<Code> Outputs;
    for (const Expr *Output : Listed[R]) {
      llvm::Expected<Code> Described = describeOutput(Output, *Returns[R]);
      if (!Described) {
        // Elements of a returned list are one output.
        size_t Index = Form == ReturnForm::List ? 1 : Outputs.size() + 1;
        return failure("output " + std::to_string(Index) + " of " + Input.OpName + ": " +
                       llvm::toString(Described.takeError()));
      }
      Outputs.push_back(std::move(*Described));
    }
    Rendered.push_back({renderResult(Outputs, /*Python=*/true), renderResult(Outputs, false)});
  }
  for (size_t R = 1; R < Rendered.size(); ++R)
    if (Rendered[R].Py != Rendered.front().Py || Rendered[R].Cpp != Rendered.front().Cpp)
      return failure("the returns of " + Input.OpName + " disagree: line " +
                     std::to_string(lineOf(Returns.front())) + " returns `" + Rendered.front().Py +
                     "`, line " + std::to_string(lineOf(Returns[R])) + " returns `" +
                     Rendered[R].Py + "`");
  return Rendered.front();
}

std::string FakeBuilder::renderResult(const std::vector<Code> &Outputs, bool Python) const {
  std::vector<std::string> Parts;
  for (const Code &Output : Outputs)
    Parts.push_back(Python ? Output.Py : Output.Cpp);
  std::string Joined = llvm::join(Parts, ", ");
  switch (Input.Returns.Form) {
  case ReturnForm::Tuple:
    if (Python)
      return "(" + Joined + (Parts.size() == 1 ? ",)" : ")");
    return "return {" + Joined + "};";
  case ReturnForm::List:
    return Python ? "[" + Joined + "]" : "return {" + Joined + "};";
  default:
    return Python ? Joined : "return " + Joined + ";";
  }
}

llvm::Expected<std::vector<const Expr *>> FakeBuilder::outputsOf(const ReturnStmt &Return) {
  const Expr *Value = Return.getRetValue();
  if (!Value)
    return failure("line " + std::to_string(lineOf(&Return)) + " of " + Input.OpName +
                   " returns no value");
  if (Input.Returns.Form == ReturnForm::Single)
    return std::vector<const Expr *>{Value};
  llvm::Expected<std::vector<const Expr *>> Outputs = listedOutputs(Value, Return);
  if (Outputs && Input.Returns.Form == ReturnForm::Tuple &&
      Outputs->size() != Input.Returns.Elements.size())
    return failure("line " + std::to_string(lineOf(&Return)) + " of " + Input.OpName + " lists " +
                   std::to_string(Outputs->size()) + " outputs, not " +
                   std::to_string(Input.Returns.Elements.size()));
  return Outputs;
}

/// The elements of a returned tuple or vector, as the return statement (or
/// the unchanged local it returns) spells them.
llvm::Expected<std::vector<const Expr *>> FakeBuilder::listedOutputs(const Expr *E,
                                                                     const ReturnStmt &Return) {
  const Expr *Value = strip(E);
  if (const auto *List = dyn_cast<InitListExpr>(Value))
    return std::vector<const Expr *>(List->inits().begin(), List->inits().end());
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value)) {
    std::vector<const Expr *> Args = writtenArgs(Construct->arguments());
    // A tuple converted from another tuple (`std::make_tuple` of other types).
    if (Args.size() == 1 && strip(Args[0])->getType()->getAsCXXRecordDecl() ==
                                Construct->getType()->getAsCXXRecordDecl()->getCanonicalDecl())
      return listedOutputs(Args[0], Return);
    if (Args.size() == 1 && isa<CallExpr>(strip(Args[0])))
      return listedOutputs(Args[0], Return);
    return Args;
  }
  if (const auto *Call = dyn_cast<CallExpr>(Value))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (llvm::is_contained({"std::make_tuple", "std::forward_as_tuple", "std::tie"},
                             qualifiedName(*Callee)))
        return writtenArgs(Call->arguments());
  if (localOf(Value)) {
    llvm::Expected<const Expr *> Init =
        localValue(Value, "line " + std::to_string(lineOf(&Return)));
    if (!Init)
      return Init.takeError();
    return listedOutputs(*Init, Return);
  }
  return failure("line " + std::to_string(lineOf(&Return)) + " of " + Input.OpName + " returns `" +
                 sourceText(E) + "`, which does not list its outputs");
}

std::optional<unsigned> FakeBuilder::returnedParam(const Expr *E) const {
  const ParmVarDecl *Param = paramOf(E);
  if (Param && Input.Params[Param->getFunctionScopeIndex()].Mutable)
    return Param->getFunctionScopeIndex();
  return std::nullopt;
}

llvm::Expected<Code> FakeBuilder::describeOutput(const Expr *E, const ReturnStmt &Return) {
  if (const ParmVarDecl *Param = paramOf(E)) {
    const OpParam &Op = Input.Params[Param->getFunctionScopeIndex()];
    if (!Op.Mutable)
      return failure("the input `" + Op.Name + "` is returned as it is, not a new tensor");
    return Code{Op.Name, Op.Name};
  }
  if (const VarDecl *Local = localOf(E)) {
    std::string Name = "`" + Local->getNameAsString() + "`";
    if (!isTensorType(Local->getType()))
      return failure(Name + " is a `" + Local->getType().getAsString() + "`, not a tensor");
    llvm::Expected<const Expr *> Definition = tensorDefinition(*Local, Return);
    if (!Definition)
      return Definition.takeError();
    return describeAllocation(*Definition, Name);
  }
  return describeAllocation(E, "the returned value");
}

/// The value a returned tensor local holds: its initializer, or the one
/// assignment at the top of the body that gives it a value, provided
/// nothing else changes it.
llvm::Expected<const Expr *> FakeBuilder::tensorDefinition(const VarDecl &Var,
                                                           const ReturnStmt &Return) {
  std::string Name = "`" + Var.getNameAsString() + "`";
  if (!Var.hasLocalStorage())
    return failure(Name + " is not a local variable");
  std::vector<VariableWrite> Writes = findWrites(Var, Body);
  const Expr *Init = Var.getInit();
  const auto *Construct = Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
  bool DefaultInit = !Init || (Construct && Construct->getNumArgs() == 0);
  if (!DefaultInit) {
    if (!Writes.empty())
      return failure(Name + " is " + Writes.front().What + " at line " +
                     std::to_string(lineOf(Writes.front().Site)) + " after its allocation");
    return Init;
  }
  if (Writes.empty())
    return failure(Name + " is never assigned");
  if (Writes.size() > 1)
    return failure(Name + " is " + Writes[1].What + " at line " +
                   std::to_string(lineOf(Writes[1].Site)) + " after its assignment at line " +
                   std::to_string(lineOf(Writes[0].Site)));
  const VariableWrite &Write = Writes.front();
  std::string Line = std::to_string(lineOf(Write.Site));
  if (!Write.AssignedValue)
    return failure(Name + " is " + Write.What + " at line " + Line + " instead of assigned");
  bool TopLevel = llvm::any_of(cast<CompoundStmt>(Body).body(), [&](const Stmt *S) {
    const auto *Statement = dyn_cast<Expr>(S);
    return Statement && Statement->IgnoreImplicit() == Write.Site;
  });
  if (!TopLevel)
    return failure(Name + " is assigned under a condition at line " + Line);
  if (!SM.isBeforeInTranslationUnit(Write.Site->getBeginLoc(), Return.getBeginLoc()))
    return failure(Name + " is returned at line " + std::to_string(lineOf(&Return)) +
                   " before its assignment at line " + Line);
  return Write.AssignedValue;
}

llvm::Expected<Code> FakeBuilder::describeAllocation(const Expr *E, const std::string &Subject) {
  const Expr *Value = strip(E);
  const auto *Call = dyn_cast<CallExpr>(Value);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  auto NotAnAllocation = [&] {
    return failure(Subject + " is computed by `" + producerText(Value) +
                   "`, not an allocation of input shape");
  };
  if (!Callee)
    return NotAnAllocation();
  std::vector<const Expr *> Args = writtenArgs(Call->arguments());
  std::string Name = Callee->getNameAsString();
  std::optional<MethodCall> Member = methodCall(Value);
  // `return out.reshape(shape_og)`: a new shape, the options of `out`.
  if (Member && Member->onTensor() && (Member->is("reshape", 1) || Member->is("view", 1))) {
    if (const auto *List = dyn_cast<InitListExpr>(strip(Member->Args[0])))
      for (const Expr *Dim : List->inits())
        if (std::optional<int64_t> Size = constInt(strip(Dim)); Size && *Size < 0)
          return failure(Subject + " is `" + producerText(Value) + "`, whose size " +
                         std::to_string(*Size) + " torch infers from the others");
    llvm::Expected<Code> Shape = describeShape(Member->Args[0], Subject);
    if (!Shape)
      return Shape.takeError();
    llvm::Expected<Code> Like = optionsSource(Member->Object, "the options of " + Subject);
    if (!Like)
      return Like.takeError();
    return Code{"torch.empty(" + Shape->Py + ", dtype=" + Like->Py + ".dtype, device=" + Like->Py +
                    ".device)",
                "at::empty(" + Shape->Cpp + ", " + Like->Cpp + ".options())"};
  }
  bool IsNew = Member && Member->onTensor() &&
               llvm::is_contained({"new_empty", "new_zeros", "new_ones"}, Name);
  AllocKind Kind = IsNew ? AllocKind::Factory : allocKind(*Callee);
  if (Kind == AllocKind::None)
    return NotAnAllocation();
  if (Args.empty() || Args.size() > 2)
    return failure(Subject + " is allocated by `" + producerText(Value) + "` with " +
                   std::to_string(Args.size()) + " arguments; only sizes and options are modelled");
  std::optional<Options> Opts;
  if (Args.size() == 2) {
    llvm::Expected<Options> Described =
        describeOptions(Args[1], "the options argument of " + Subject);
    if (!Described)
      return Described.takeError();
    Opts = std::move(*Described);
  }
  std::string Keywords = Opts ? Opts->keywords() : "";
  std::string CppOptions = Opts ? ", " + Opts->Cpp : "";
  if (Kind == AllocKind::Like) {
    llvm::Expected<Code> Like = tensorOperand(Args[0], "the size argument of " + Subject, true);
    if (!Like)
      return Like.takeError();
    return Code{"torch." + Name + "(" + Like->Py + Keywords + ")",
                "at::" + Name + "(" + Like->Cpp + CppOptions + ")"};
  }
  llvm::Expected<Code> Shape = describeShape(Args[0], Subject);
  if (!Shape)
    return Shape.takeError();
  if (!IsNew)
    return Code{"torch." + Name + "(" + Shape->Py + Keywords + ")",
                "at::" + Name + "(" + Shape->Cpp + CppOptions + ")"};
  llvm::Expected<Code> Base = tensorOperand(Member->Object, "the options of " + Subject, false);
  if (!Base)
    return Base.takeError();
  return Code{Base->Py + "." + Name + "(" + Shape->Py + Keywords + ")",
              Base->Cpp + "." + Name + "(" + Shape->Cpp + CppOptions + ")"};
}

llvm::Expected<Code> FakeBuilder::describeShape(const Expr *E, const std::string &Subject) {
  const Expr *Value = strip(E);
  if (const auto *List = dyn_cast<InitListExpr>(Value)) {
    std::vector<std::string> Py, Cpp;
    for (unsigned I = 0; I < List->getNumInits(); ++I) {
      llvm::Expected<Code> Dim =
          describeDim(List->getInit(I), "dimension " + std::to_string(I) + " of " + Subject);
      if (!Dim)
        return Dim.takeError();
      Py.push_back(Dim->Py);
      Cpp.push_back(Dim->Cpp);
    }
    return Code{"(" + llvm::join(Py, ", ") + (Py.size() == 1 ? ",)" : ")"),
                "{" + llvm::join(Cpp, ", ") + "}"};
  }
  if (std::optional<MethodCall> Call = methodCall(Value);
      Call && Call->onTensor() && Call->is("sizes", 0)) {
    llvm::Expected<Code> Tensor = tensorOperand(Call->Object, "the shape of " + Subject, false);
    if (!Tensor)
      return Tensor.takeError();
    return Code{Tensor->Py + ".shape", Tensor->Cpp + ".sizes()"};
  }
  if (localOf(Value)) {
    llvm::Expected<const Expr *> Init = localValue(Value, "the shape of " + Subject);
    if (!Init)
      return Init.takeError();
    return describeShape(*Init, Subject);
  }
  return failure("the shape of " + Subject + " is `" + sourceText(Value) +
                 "`, not a list of sizes");
}

llvm::Expected<Code> FakeBuilder::describeDim(const Expr *E, const std::string &Subject) {
  const Expr *Value = strip(E);
  if (std::optional<int64_t> Literal = constInt(Value))
    return Code{std::to_string(*Literal), std::to_string(*Literal)};
  // `t.size(k)`, `t.sizes()[k]` and `t.numel()`.
  std::optional<MethodCall> Call = methodCall(Value);
  const Expr *Index = Call && Call->is("size", 1) ? Call->Args[0] : nullptr;
  if (const auto *Subscript = dyn_cast<CXXOperatorCallExpr>(Value);
      Subscript && Subscript->getOperator() == OO_Subscript && Subscript->getNumArgs() == 2) {
    Call = methodCall(Subscript->getArg(0));
    Index = Call && Call->is("sizes", 0) ? Subscript->getArg(1) : nullptr;
  }
  bool IsNumel = Call && Call->is("numel", 0);
  if (Call && Call->onTensor() && (Index || IsNumel)) {
    llvm::Expected<Code> Tensor = tensorOperand(Call->Object, Subject, false);
    if (!Tensor)
      return Tensor.takeError();
    if (IsNumel)
      return Code{Tensor->Py + ".numel()", Tensor->Cpp + ".numel()"};
    std::optional<int64_t> K = constInt(Index);
    if (!K)
      return failure(Subject + " uses `" + sourceText(Value) +
                     "`, whose dimension index is not a constant");
    std::string Dim = std::to_string(*K);
    return Code{Tensor->Py + ".shape[" + Dim + "]", Tensor->Cpp + ".size(" + Dim + ")"};
  }
  if (const auto *Product = dyn_cast<BinaryOperator>(Value);
      Product && Product->getOpcode() == BO_Mul) {
    llvm::Expected<Code> Left = describeDim(Product->getLHS(), Subject);
    if (!Left)
      return Left.takeError();
    llvm::Expected<Code> Right = describeDim(Product->getRHS(), Subject);
    if (!Right)
      return Right.takeError();
    return Code{Left->Py + " * " + Right->Py, Left->Cpp + " * " + Right->Cpp};
  }
  if (const ParmVarDecl *Param = paramOf(Value); Param && Param->getType()->isIntegerType()) {
    const std::string &Name = Input.Params[Param->getFunctionScopeIndex()].Name;
    return Code{Name, Name};
  }
  if (localOf(Value)) {
    llvm::Expected<const Expr *> Init = localValue(Value, Subject);
    if (!Init)
      return Init.takeError();
    return describeDim(*Init, Subject);
  }
  return failure(Subject + " uses `" + sourceText(Value) +
                 "`, which is not an input size, a literal or a product of those");
}

llvm::Expected<Options> FakeBuilder::describeOptions(const Expr *E, const std::string &Subject) {
  const Expr *Value = strip(E);
  if (isScalarTypeEnum(Value->getType())) {
    llvm::Expected<Code> Dtype = describeDtype(Value, Subject);
    if (!Dtype)
      return Dtype.takeError();
    return Options{Dtype->Py, "", Dtype->Cpp};
  }
  if (std::optional<MethodCall> Call = methodCall(Value)) {
    if (Call->onTensor() && Call->is("options", 0)) {
      llvm::Expected<Code> Tensor = tensorOperand(Call->Object, Subject, false);
      if (!Tensor)
        return Tensor.takeError();
      return Options{Tensor->Py + ".dtype", Tensor->Py + ".device", Tensor->Cpp + ".options()"};
    }
    bool OnOptions = llvm::StringRef(Call->Class).ends_with("::TensorOptions");
    if (OnOptions && (Call->is("dtype", 1) || Call->is("device", 1))) {
      llvm::Expected<Options> Base = describeOptions(Call->Object, Subject);
      if (!Base)
        return Base.takeError();
      bool IsDtype = Call->Method == "dtype";
      llvm::Expected<Code> Arg =
          IsDtype ? describeDtype(Call->Args[0], Subject) : describeDevice(Call->Args[0], Subject);
      if (!Arg)
        return Arg.takeError();
      (IsDtype ? Base->Dtype : Base->Device) = Arg->Py;
      Base->Cpp += "." + Call->Method.str() + "(" + Arg->Cpp + ")";
      return Base;
    }
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value);
      Construct && writtenArgs(Construct->arguments()).empty() &&
      llvm::StringRef(qualifiedName(*Construct->getConstructor()->getParent()))
          .ends_with("::TensorOptions"))
    return Options{"", "", "at::TensorOptions()"};
  if (const auto *Call = dyn_cast<CallExpr>(Value); Call && Call->getNumArgs() == 1)
    if (const FunctionDecl *Callee = Call->getDirectCallee();
        Callee &&
        llvm::is_contained({"c10::dtype", "at::dtype", "torch::dtype"}, qualifiedName(*Callee))) {
      llvm::Expected<Code> Dtype = describeDtype(Call->getArg(0), Subject);
      if (!Dtype)
        return Dtype.takeError();
      return Options{Dtype->Py, "", "at::dtype(" + Dtype->Cpp + ")"};
    }
  if (localOf(Value)) {
    llvm::Expected<const Expr *> Init = localValue(Value, Subject);
    if (!Init)
      return Init.takeError();
    return describeOptions(*Init, Subject);
  }
  return failure(Subject + " uses `" + sourceText(Value) +
                 "`, which is not an input's options or a dtype");
}

llvm::Expected<Code> FakeBuilder::describeDtype(const Expr *E, const std::string &Subject) {
  const Expr *Value = strip(E);
  if (isScalarTypeEnum(Value->getType()))
    if (std::optional<int64_t> Constant = constInt(Value)) {
      const EnumDecl *Enum = Value->getType()->getAsEnumDecl();
      for (const EnumConstantDecl *Enumerator : Enum->enumerators())
        if (Enumerator->getInitVal() == *Constant)
          if (std::optional<std::string> Torch = torchDtype(Enumerator->getName()))
            return Code{*Torch, "at::ScalarType::" + Enumerator->getNameAsString()};
    }
  if (std::optional<MethodCall> Call = methodCall(Value);
      Call && Call->onTensor() && (Call->is("scalar_type", 0) || Call->is("dtype", 0))) {
    llvm::Expected<Code> Tensor = tensorOperand(Call->Object, Subject, false);
    if (!Tensor)
      return Tensor.takeError();
    return Code{Tensor->Py + ".dtype", Tensor->Cpp + ".scalar_type()"};
  }
  if (const ParmVarDecl *Param = paramOf(Value); Param && isScalarTypeEnum(Param->getType())) {
    const std::string &Name = Input.Params[Param->getFunctionScopeIndex()].Name;
    return Code{Name, Name};
  }
  if (localOf(Value)) {
    llvm::Expected<const Expr *> Init = localValue(Value, Subject);
    if (!Init)
      return Init.takeError();
    return describeDtype(*Init, Subject);
  }
  return failure(Subject + " uses `" + sourceText(Value) +
                 "`, which is not a dtype constant or an input's dtype");
}

llvm::Expected<Code> FakeBuilder::describeDevice(const Expr *E, const std::string &Subject) {
  const Expr *Value = strip(E);
  if (std::optional<MethodCall> Call = methodCall(Value);
      Call && Call->onTensor() && Call->is("device", 0)) {
    llvm::Expected<Code> Tensor = tensorOperand(Call->Object, Subject, false);
    if (!Tensor)
      return Tensor.takeError();
    return Code{Tensor->Py + ".device", Tensor->Cpp + ".device()"};
  }
  if (localOf(Value)) {
    llvm::Expected<const Expr *> Init = localValue(Value, Subject);
    if (!Init)
      return Init.takeError();
    return describeDevice(*Init, Subject);
  }
  return failure(Subject + " uses `" + sourceText(Value) + "`, which is not an input's device");
}

/// Whether `Value` is `V.<op>(...)` or `pad(V, ...)` for an op that keeps
/// the dtype and the device of `V` (a view, a copy, padding).
bool keepsOptionsOf(const Expr *Value, const VarDecl &V) {
  auto Names = [&](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(strip(E));
    return Ref && Ref->getDecl() == &V;
  };
  if (std::optional<MethodCall> Call = methodCall(Value))
    return Call->onTensor() && Names(Call->Object) &&
           llvm::is_contained({"reshape", "view", "contiguous", "flatten", "index", "slice",
                               "narrow", "select", "squeeze", "unsqueeze", "transpose", "permute",
                               "expand", "clone", "t"},
                              Call->Method);
  const auto *Call = dyn_cast<CallExpr>(strip(Value));
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Call->getNumArgs() > 0 && Names(Call->getArg(0)) &&
         llvm::is_contained({"pad", "constant_pad_nd"}, Callee->getNameAsString());
}

/// Whether every assignment of `Var` but `Except` keeps its options.
bool FakeBuilder::onlyOptionsPreserving(const VarDecl &Var, const Expr *Except) const {
  return llvm::all_of(findWrites(Var, Body), [&](const VariableWrite &W) {
    return W.AssignedValue && (W.AssignedValue == Except || keepsOptionsOf(W.AssignedValue, Var));
  });
}

/// A tensor with the dtype and device of `E`: an input, through the views,
/// copies and paddings the body rebinds it to (`x = x.reshape(...)`), or the
/// input a local was allocated like (`out = at::empty_like(x)`, then
/// `out = out.index(...)`).
llvm::Expected<Code> FakeBuilder::optionsSource(const Expr *E, const std::string &Subject) {
  const Expr *Value = strip(E);
  const auto *Ref = dyn_cast<DeclRefExpr>(Value);
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (Param && Param->getDeclContext() == Input.Function &&
      Input.Params[Param->getFunctionScopeIndex()].IsTensor &&
      onlyOptionsPreserving(*Param, nullptr))
    return Code{Param->getNameAsString(), Param->getNameAsString()};
  const VarDecl *Local = localOf(Value);
  if (!Local || !isTensorType(Local->getType()))
    return tensorOperand(Value, Subject, false);
  const Expr *Allocation = Local->getInit();
  if (const auto *Construct =
          Allocation ? dyn_cast<CXXConstructExpr>(Allocation->IgnoreImplicit()) : nullptr;
      !Allocation || (Construct && Construct->getNumArgs() == 0)) {
    std::vector<VariableWrite> Writes = findWrites(*Local, Body);
    Allocation = Writes.empty() ? nullptr : Writes.front().AssignedValue;
  }
  if (!Allocation || !onlyOptionsPreserving(*Local, Allocation))
    return failure(Subject + " uses `" + sourceText(Value) +
                   "`, which is changed other than by views and copies of itself");
  const auto *Call = dyn_cast<CallExpr>(strip(Allocation));
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  std::vector<const Expr *> Args =
      Call ? writtenArgs(Call->arguments()) : std::vector<const Expr *>{};
  if (Callee && allocKind(*Callee) == AllocKind::Like && Args.size() == 1)
    return optionsSource(Args[0], Subject);
  if (Callee && allocKind(*Callee) == AllocKind::Factory && Args.size() == 2)
    if (std::optional<MethodCall> Options = methodCall(Args[1]);
        Options && Options->onTensor() && Options->is("options", 0))
      return optionsSource(Options->Object, Subject);
  return failure(Subject + " uses `" + sourceText(Value) + "`, allocated by `" +
                 producerText(strip(Allocation)) + "`, whose options are not an input's");
}

/// A tensor parameter, or an unchanged local holding `p.contiguous()` (the
/// same sizes and options as `p`; `KeepLayout` keeps the call, for `_like`
/// allocations that copy strides).
llvm::Expected<Code> FakeBuilder::tensorOperand(const Expr *E, const std::string &Subject,
                                                bool KeepLayout) {
  const Expr *Value = strip(E);
  if (const ParmVarDecl *Param = paramOf(Value)) {
    const OpParam &Op = Input.Params[Param->getFunctionScopeIndex()];
    if (Op.IsTensor)
      return Code{Op.Name, Op.Name};
  }
  if (const VarDecl *Local = localOf(Value); Local && isTensorType(Local->getType())) {
    llvm::Expected<const Expr *> Init = localValue(Value, Subject);
    if (!Init)
      return Init.takeError();
    std::optional<MethodCall> Call = methodCall(*Init);
    if (Call && Call->onTensor() && Call->is("contiguous", 0)) {
      llvm::Expected<Code> Base = tensorOperand(Call->Object, Subject, false);
      if (!Base)
        return Base.takeError();
      if (KeepLayout)
        return Code{Base->Py + ".contiguous()", Base->Cpp + ".contiguous()"};
      return Base;
    }
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Value);
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (auto It = Param ? ReboundAt.find(Param) : ReboundAt.end(); It != ReboundAt.end())
    return failure(Subject + " uses `" + sourceText(Value) + "`, which line " +
                   std::to_string(lineOf(It->second)) + " reassigns: it is no longer the input");
  return failure(Subject + " uses `" + sourceText(Value) + "`, which is not a tensor parameter");
}

/// The initializer of an unchanged local variable that `E` names.
llvm::Expected<const Expr *> FakeBuilder::localValue(const Expr *E, const std::string &Subject) {
  const VarDecl *Local = localOf(E);
  std::string Name = "`" + Local->getNameAsString() + "`";
  if (!Local->getInit())
    return failure(Subject + " uses " + Name + ", which is not initialized where it is declared");
  std::vector<VariableWrite> Writes = findWrites(*Local, Body);
  if (!Writes.empty())
    return failure(Subject + " uses " + Name + ", which is " + Writes.front().What + " at line " +
                   std::to_string(lineOf(Writes.front().Site)));
  return Local->getInit();
}

const ParmVarDecl *FakeBuilder::paramOf(const Expr *E) const {
  const auto *Ref = dyn_cast<DeclRefExpr>(strip(E));
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Param || Param->getDeclContext() != Input.Function || pastRebinding(*Ref, *Param))
    return nullptr;
  return Param;
}

bool FakeBuilder::pastRebinding(const DeclRefExpr &Ref, const ParmVarDecl &Param) const {
  auto It = ReboundAt.find(&Param);
  return It != ReboundAt.end() &&
         SM.isBeforeInTranslationUnit(SM.getExpansionLoc(It->second->getBeginLoc()),
                                      SM.getExpansionLoc(Ref.getBeginLoc()));
}

const VarDecl *FakeBuilder::localOf(const Expr *E) const {
  const auto *Ref = dyn_cast<DeclRefExpr>(strip(E));
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || isa<ParmVarDecl>(Var) || !Var->hasLocalStorage())
    return nullptr;
  return Var;
}

std::optional<int64_t> FakeBuilder::constInt(const Expr *E) const {
  Expr::EvalResult Result;
  if (E->isValueDependent() || !E->EvaluateAsInt(Result, Ctx))
    return std::nullopt;
  return Result.Val.getInt().getSExtValue();
}

std::string FakeBuilder::sourceText(const Expr *E) const {
  CharSourceRange Range = SM.getExpansionRange(E->getSourceRange());
  llvm::StringRef Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts());
  // One line, short enough to read in a message.
  std::string Flat;
  for (char C : Text) {
    bool Space = llvm::isSpace(C);
    if (!Space || (!Flat.empty() && Flat.back() != ' '))
      Flat.push_back(Space ? ' ' : C);
  }
  constexpr size_t MaxLength = 60;
  if (Flat.size() > MaxLength)
    Flat = Flat.substr(0, MaxLength - 3) + "...";
  return Flat;
}

/// `f(...)` for a call, the expression itself otherwise.
std::string FakeBuilder::producerText(const Expr *E) const {
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call || isa<CXXOperatorCallExpr>(Call))
    return sourceText(E);
  return sourceText(Call->getCallee()) + "(...)";
}

} // namespace

FakeResult deriveFake(const FakeInput &Input, ASTContext &Ctx) {
  return FakeBuilder(Input, Ctx).build();
}

} // namespace opmig::migrate
