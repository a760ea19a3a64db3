//===- ValidationSpecReader.cpp - Reading opmig-validation-spec.json ------===//
//
// The spec is a file the user edits, so everything is checked where it is
// read, and every complaint names FILE:LINE:COL through ConfigNode: unknown
// keys (with `did you mean`), provenance wrappers, dtype names, shapes,
// constraints (parsed by SpecExpression), references, tolerances and cases
// (their dims against the shapes, their values against the constraints).
//
//===----------------------------------------------------------------------===//

#include "opmig/support/ConfigNode.h"
#include "opmig/support/SpecExpression.h"
#include "opmig/support/ValidationSpec.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <functional>
#include <set>

namespace opmig {

namespace {

const llvm::StringRef TopKeys[] = {"schema", "domain", "ops"};
const llvm::StringRef OpKeys[] = {"name",      "schema",     "inputs", "constraints",  "outputs",
                                  "reference", "tolerances", "cases",  "upstream_diff"};
const llvm::StringRef InputKeys[] = {"name",       "type",   "shape", "dtypes",
                                     "contiguous", "device", "range"};
const llvm::StringRef TensorOnlyKeys[] = {"shape", "dtypes", "contiguous", "device"};
const llvm::StringRef CaseKeys[] = {"name", "dims", "dtypes", "scalars"};
const llvm::StringRef SourceKeys[] = {"code", "default", "user"};

bool isIdentifier(llvm::StringRef Text) {
  return !Text.empty() && (llvm::isAlpha(Text.front()) || Text.front() == '_') &&
         llvm::all_of(Text, [](char C) { return llvm::isAlnum(C) || C == '_'; });
}

/// `package.module:function` (the function may be `Class.method`).
bool isPythonReference(llvm::StringRef Text) {
  auto [Module, Function] = Text.split(':');
  auto Dotted = [](llvm::StringRef Path) {
    llvm::SmallVector<llvm::StringRef> Parts;
    Path.split(Parts, '.');
    return llvm::all_of(Parts, isIdentifier);
  };
  return Text.contains(':') && Dotted(Module) && Dotted(Function);
}

/// `ns::function`, optionally from the global namespace (`::f`).
bool isCppReference(llvm::StringRef Text) {
  Text.consume_front("::");
  llvm::SmallVector<llvm::StringRef> Parts;
  Text.split(Parts, "::");
  return llvm::all_of(Parts, isIdentifier);
}

/// An op's or a case's name: what torch and test ids can carry.
bool isPlainName(llvm::StringRef Text) {
  return !Text.empty() && llvm::all_of(Text, [](char C) {
    return llvm::isAlnum(C) || llvm::is_contained("_.-", C);
  });
}

llvm::Expected<std::string> plainName(const ConfigNode &Node) {
  llvm::Expected<std::string> Name = Node.string();
  if (Name && !isPlainName(*Name))
    return Node.error("'" + *Name + "' in " + Node.describe() +
                      " must be a name of letters, digits, '_', '.' and '-'");
  return Name;
}

llvm::Expected<double> number(const ConfigNode &Node) {
  if (!Node.json().is_number() || !std::isfinite(Node.json().get<double>()))
    return Node.error(Node.describe() + " must be a finite number");
  return Node.json().get<double>();
}

/// A non-negative integer of a case's dims or a shape.
llvm::Expected<int64_t> size(const ConfigNode &Node) {
  const nlohmann::json &V = Node.json();
  bool Fits = V.is_number_unsigned() ? V.get<uint64_t>() <= INT64_MAX
                                     : V.is_number_integer() && V.get<int64_t>() >= 0;
  if (!Fits)
    return Node.error(Node.describe() + " must be a non-negative integer");
  return V.get<int64_t>();
}

llvm::Expected<std::string> dtypeName(const ConfigNode &Node) {
  llvm::Expected<std::string> Name = Node.string();
  if (!Name)
    return Name.takeError();
  if (!llvm::is_contained(knownDtypes(), *Name))
    return Node.error("unknown dtype '" + *Name + "' in " + Node.describe() +
                      "; known dtypes: " + llvm::join(knownDtypes(), ", "));
  return Name;
}

llvm::Expected<std::vector<std::string>> dtypeList(const ConfigNode &Node) {
  if (!Node.json().is_array() || Node.json().empty())
    return Node.error(Node.describe() + " must be a non-empty list of dtypes");
  std::vector<std::string> Names;
  for (const ConfigNode &Item : Node.elements()) {
    llvm::Expected<std::string> Name = dtypeName(Item);
    if (!Name)
      return Name.takeError();
    if (llvm::is_contained(Names, *Name))
      return Item.error("dtype '" + *Name + "' is listed twice in " + Node.describe());
    Names.push_back(std::move(*Name));
  }
  return Names;
}

template <typename T> using ValueReader = std::function<llvm::Expected<T>(const ConfigNode &)>;

/// `"TODO"`, `{"code": V, "at": "file:line:col"}`, `{"default": V}` or
/// `{"user": V}`; an absent node is TODO.
template <typename T>
llvm::Error readSourcedNode(const ConfigNode &Node, Sourced<T> &Out, const ValueReader<T> &Read) {
  Out = Sourced<T>();
  if (!Node.exists() || (Node.json().is_string() && Node.json().get<std::string>() == "TODO"))
    return llvm::Error::success();
  auto Expected = [&] {
    return Node.error(Node.describe() +
                      " must be \"TODO\" or a mapping {code: VALUE, at: WHERE}, {default: VALUE} "
                      "or {user: VALUE}");
  };
  if (!Node.json().is_object() || Node.json().empty())
    return Expected();
  if (llvm::Error E = Node.allowKeys({"code", "at", "default", "user"}))
    return E;
  std::vector<llvm::StringRef> Present;
  for (llvm::StringRef Source : SourceKeys)
    if (Node.has(Source))
      Present.push_back(Source);
  if (Present.size() != 1)
    return Expected();
  if (Node.has("at") && Present.front() != "code")
    return Node.member("at").error("'at' goes with 'code' only, in " + Node.describe());
  llvm::Expected<T> Value = Read(Node.member(Present.front()));
  if (!Value)
    return Value.takeError();
  Out.Value = std::move(*Value);
  Out.Source = Present.front() == "code"      ? ValueSource::Code
               : Present.front() == "default" ? ValueSource::Default
                                              : ValueSource::User;
  return Node.readString("at", Out.At);
}

template <typename T>
llvm::Error readSourced(const ConfigNode &Parent, llvm::StringRef Key, Sourced<T> &Out,
                        const ValueReader<T> &Read) {
  return readSourcedNode(Parent.member(Key), Out, Read);
}

llvm::Expected<bool> readBoolean(const ConfigNode &Node) { return Node.boolean(); }

llvm::Expected<std::vector<std::string>> readShape(const ConfigNode &Node) {
  if (llvm::Error E = Node.expectList())
    return E;
  std::vector<std::string> Dims;
  for (const ConfigNode &Item : Node.elements()) {
    if (Item.json() == LeadingDims) {
      if (!Dims.empty())
        return Item.error("'...' (any leading dims) may only be a shape's first dim");
      Dims.push_back(LeadingDims);
    } else if (Item.json().is_number()) {
      llvm::Expected<int64_t> Size = size(Item);
      if (!Size)
        return Size.takeError();
      Dims.push_back(std::to_string(*Size));
    } else if (Item.json().is_string() && isIdentifier(Item.json().get<std::string>())) {
      Dims.push_back(Item.json().get<std::string>());
    } else {
      return Item.error(Item.describe() +
                        " must be a dim name (an identifier), a size, or '...' first");
    }
  }
  return Dims;
}

llvm::Expected<DtypeSet> readDtypes(const ConfigNode &Node) {
  DtypeSet Set;
  if (Node.json().is_object()) {
    if (llvm::Error E = Node.allowKeys({"same_as"}))
      return E;
    if (llvm::Error E = Node.requireKeys({"same_as"}))
      return E;
    llvm::Expected<std::string> Other = Node.member("same_as").nonEmptyString();
    if (!Other)
      return Other.takeError();
    Set.SameAs = std::move(*Other);
    return Set;
  }
  llvm::Expected<std::vector<std::string>> Names = dtypeList(Node);
  if (!Names)
    return Names.takeError();
  Set.Names = std::move(*Names);
  return Set;
}

llvm::Expected<std::string> readDevice(const ConfigNode &Node) {
  llvm::Expected<std::string> Device = Node.string();
  if (Device && *Device != "cuda" && *Device != "cpu")
    return Node.error(Node.describe() + " must be cuda or cpu, not '" + *Device + "'");
  return Device;
}

llvm::Expected<ValueRange> readRange(const ConfigNode &Node) {
  if (!Node.json().is_array() || Node.json().size() != 2)
    return Node.error(Node.describe() + " must be a list [low, high] of two numbers");
  llvm::Expected<double> Low = number(Node.element(0));
  if (!Low)
    return Low.takeError();
  llvm::Expected<double> High = number(Node.element(1));
  if (!High)
    return High.takeError();
  if (*Low > *High)
    return Node.error(Node.describe() + ": low " + std::to_string(*Low) + " is above high " +
                      std::to_string(*High));
  return ValueRange{*Low, *High};
}

llvm::Expected<std::string> readConstraint(const ConfigNode &Node) {
  llvm::Expected<std::string> Text = Node.string();
  if (!Text)
    return Text.takeError();
  llvm::Expected<SpecExpression> Parsed = SpecExpression::parse(*Text);
  if (!Parsed)
    return Node.error("bad constraint '" + *Text + "' in " + Node.describe() + ": " +
                      llvm::toString(Parsed.takeError()));
  return Text;
}

llvm::Expected<SpecReference> readReference(const ConfigNode &Node) {
  if (llvm::Error E = Node.expectMapping())
    return E;
  if (llvm::Error E = Node.allowKeys({"python", "cpp"}))
    return E;
  if (Node.has("python") == Node.has("cpp"))
    return Node.error(Node.describe() + " must hold one of 'python' (module:function) or 'cpp' "
                                        "(ns::function)");
  SpecReference Ref;
  if (Node.has("python")) {
    llvm::Expected<std::string> Text = Node.member("python").string();
    if (Text && !isPythonReference(*Text))
      return Node.member("python").error("'" + *Text +
                                         "' is not a Python function as module:function");
    if (!Text)
      return Text.takeError();
    Ref.Python = std::move(*Text);
    return Ref;
  }
  llvm::Expected<std::string> Text = Node.member("cpp").string();
  if (Text && !isCppReference(*Text))
    return Node.member("cpp").error("'" + *Text + "' is not a qualified C++ function name");
  if (!Text)
    return Text.takeError();
  Ref.Cpp = std::move(*Text);
  return Ref;
}

llvm::Expected<std::map<std::string, Tolerance>> readTolerances(const ConfigNode &Node) {
  if (llvm::Error E = Node.expectMapping())
    return E;
  std::map<std::string, Tolerance> Out;
  for (const ConfigNode &Member : Node.members()) {
    if (!llvm::is_contained(knownDtypes(), Member.key()))
      return Member.error("unknown dtype '" + Member.key() + "' in " + Node.describe() +
                          "; known dtypes: " + llvm::join(knownDtypes(), ", "));
    if (llvm::Error E = Member.expectMapping())
      return E;
    if (llvm::Error E = Member.allowKeys({"atol", "rtol"}))
      return E;
    if (llvm::Error E = Member.requireKeys({"atol", "rtol"}))
      return E;
    Tolerance T;
    for (auto [Key, Field] : {std::pair{"atol", &T.Atol}, {"rtol", &T.Rtol}}) {
      llvm::Expected<double> Value = number(Member.member(Key));
      if (!Value)
        return Value.takeError();
      if (*Value < 0)
        return Member.member(Key).error(Member.member(Key).describe() + " must not be negative");
      *Field = *Value;
    }
    Out[Member.key()] = T;
  }
  return Out;
}

llvm::Expected<SpecUpstreamDiff> readUpstreamDiff(const ConfigNode &Node) {
  if (llvm::Error E = Node.expectMapping())
    return E;
  if (llvm::Error E = Node.allowKeys({"reason", "cases", "tolerances"}))
    return E;
  if (llvm::Error E = Node.requireKeys({"reason", "tolerances"}))
    return E;
  SpecUpstreamDiff Diff;
  llvm::Expected<std::string> Reason = Node.member("reason").nonEmptyString();
  if (!Reason)
    return Reason.takeError();
  Diff.Reason = std::move(*Reason);
  if (Node.has("cases")) {
    ConfigNode Cases = Node.member("cases");
    if (llvm::Error E = Cases.expectList())
      return E;
    for (const ConfigNode &Item : Cases.elements()) {
      llvm::Expected<std::string> Name = Item.nonEmptyString();
      if (!Name)
        return Name.takeError();
      Diff.Cases.push_back(std::move(*Name));
    }
  }
  llvm::Expected<std::map<std::string, Tolerance>> Tolerances =
      readTolerances(Node.member("tolerances"));
  if (!Tolerances)
    return Tolerances.takeError();
  Diff.Tolerances = std::move(*Tolerances);
  return Diff;
}

/// Reads one op; the checks across its parts (dims, same_as, outputs,
/// cases) follow once it is whole.
class OpReader {
public:
  explicit OpReader(const ConfigNode &Node) : Node(Node) {}

  llvm::Expected<SpecOp> read() {
    if (llvm::Error E = Node.expectMapping())
      return E;
    if (llvm::Error E = Node.allowKeys(OpKeys))
      return E;
    if (llvm::Error E = Node.requireKeys({"name", "inputs"}))
      return E;
    llvm::Expected<std::string> Name = plainName(Node.member("name"));
    if (!Name)
      return Name.takeError();
    Op.Name = std::move(*Name);
    if (llvm::Error E = Node.readString("schema", Op.Schema))
      return E;
    if (llvm::Error E = readInputs())
      return E;
    if (llvm::Error E = checkSameAs())
      return E;
    if (llvm::Error E = readConstraints())
      return E;
    if (llvm::Error E = checkConstraintNames())
      return E;
    if (llvm::Error E = readOutputs())
      return E;
    if (llvm::Error E = readSourced<SpecReference>(Node, "reference", Op.Reference, readReference))
      return E;
    if (llvm::Error E = readSourced<std::map<std::string, Tolerance>>(
            Node, "tolerances", Op.Tolerances, readTolerances))
      return E;
    if (llvm::Error E = readCases())
      return E;
    if (llvm::Error E =
            readSourced<SpecUpstreamDiff>(Node, "upstream_diff", Op.UpstreamDiff, readUpstreamDiff))
      return E;
    if (llvm::Error E = checkUpstreamDiffCases())
      return E;
    return std::move(Op);
  }

private:
  const ConfigNode &Node;
  SpecOp Op;

  bool allShapesKnown() const {
    return llvm::all_of(Op.Inputs,
                        [](const SpecInput &In) { return !In.IsTensor || In.Shape.known(); });
  }

  llvm::Error readInputs() {
    ConfigNode Inputs = Node.member("inputs");
    if (llvm::Error E = Inputs.expectList())
      return E;
    for (const ConfigNode &Item : Inputs.elements()) {
      llvm::Expected<SpecInput> In = readInput(Item);
      if (!In)
        return In.takeError();
      if (Op.input(In->Name))
        return Item.member("name").error("input '" + In->Name + "' is listed twice in op '" +
                                         Op.Name + "'");
      Op.Inputs.push_back(std::move(*In));
    }
    return llvm::Error::success();
  }

  static llvm::Expected<SpecInput> readInput(const ConfigNode &Item) {
    if (llvm::Error E = Item.expectMapping())
      return E;
    if (llvm::Error E = Item.allowKeys(InputKeys))
      return E;
    if (llvm::Error E = Item.requireKeys({"name", "type"}))
      return E;
    SpecInput In;
    llvm::Expected<std::string> Name = Item.member("name").string();
    if (Name && !isIdentifier(*Name))
      return Item.member("name").error("input name '" + *Name + "' is not an identifier");
    if (!Name)
      return Name.takeError();
    In.Name = std::move(*Name);
    llvm::Expected<std::string> Type = Item.member("type").nonEmptyString();
    if (!Type)
      return Type.takeError();
    In.Type = std::move(*Type);
    In.IsTensor = isTensorSchemaType(In.Type);
    if (!In.IsTensor)
      for (llvm::StringRef Key : TensorOnlyKeys)
        if (Item.has(Key))
          return Item.member(Key).error("'" + Key.str() + "' applies to tensor inputs only; '" +
                                        In.Name + "' is a " + In.Type);
    if (llvm::Error E = readSourced<std::vector<std::string>>(Item, "shape", In.Shape, readShape))
      return E;
    if (llvm::Error E = readSourced<DtypeSet>(Item, "dtypes", In.Dtypes, readDtypes))
      return E;
    if (llvm::Error E = readSourced<bool>(Item, "contiguous", In.Contiguous, readBoolean))
      return E;
    if (llvm::Error E = readSourced<std::string>(Item, "device", In.Device, readDevice))
      return E;
    if (llvm::Error E = readSourced<ValueRange>(Item, "range", In.Range, readRange))
      return E;
    return In;
  }

  llvm::Error readConstraints() {
    ConfigNode List = Node.member("constraints");
    if (!List.exists())
      return llvm::Error::success();
    if (llvm::Error E = List.expectList())
      return E;
    for (const ConfigNode &Item : List.elements()) {
      Sourced<std::string> Constraint;
      if (llvm::Error E = readSourcedNode<std::string>(Item, Constraint, readConstraint))
        return E;
      if (!Constraint.known())
        return Item.error(Item.describe() + ": a constraint cannot be TODO; remove it");
      Op.Constraints.push_back(std::move(Constraint));
    }
    return llvm::Error::success();
  }

  llvm::Error readOutputs() {
    ConfigNode List = Node.member("outputs");
    if (!List.exists())
      return llvm::Error::success();
    if (llvm::Error E = List.expectList())
      return E;
    for (const ConfigNode &Item : List.elements()) {
      llvm::Expected<SpecOutput> Output = readOutput(Item);
      if (!Output)
        return Output.takeError();
      Op.Outputs.push_back(std::move(*Output));
    }
    return llvm::Error::success();
  }

  llvm::Expected<SpecOutput> readOutput(const ConfigNode &Item) const {
    if (llvm::Error E = Item.expectMapping())
      return E;
    if (llvm::Error E = Item.allowKeys({"result", "aliases", "argument", "in_place"}))
      return E;
    SpecOutput Output;
    if (Item.has("result") == Item.has("argument"))
      return Item.error(Item.describe() + " must name one of 'result' (an index) or 'argument'");
    if (Item.has("result")) {
      if (Item.has("in_place"))
        return Item.member("in_place").error("'in_place' applies to argument outputs only");
      llvm::Expected<int64_t> Index = size(Item.member("result"));
      if (!Index)
        return Index.takeError();
      Output.Result = static_cast<unsigned>(*Index);
    } else if (Item.has("aliases")) {
      return Item.member("aliases").error("'aliases' applies to result outputs only");
    }
    llvm::StringRef ArgumentKey = Item.has("argument") ? "argument" : "aliases";
    if (llvm::Error E = Item.readString(ArgumentKey, Output.Argument))
      return E;
    const SpecInput *Written = Output.Argument.empty() ? nullptr : Op.input(Output.Argument);
    if (!Output.Argument.empty() && (!Written || !Written->IsTensor))
      return Item.member(ArgumentKey)
          .error("'" + Output.Argument + "' is not a tensor input of op '" + Op.Name + "'");
    if (llvm::Error E = readSourced<bool>(Item, "in_place", Output.InPlace, readBoolean))
      return E;
    return Output;
  }

  llvm::Error checkSameAs() const {
    ConfigNode Inputs = Node.member("inputs");
    for (size_t I = 0; I < Op.Inputs.size(); ++I) {
      const std::string &Other = Op.Inputs[I].Dtypes.Value.SameAs;
      if (!Op.Inputs[I].Dtypes.known() || Other.empty())
        continue;
      const SpecInput *Target = Op.input(Other);
      if (!Target || !Target->IsTensor || Other == Op.Inputs[I].Name)
        return Inputs.element(I).member("dtypes").error(
            "'same_as' names '" + Other + "', which is no other tensor input of op '" + Op.Name +
            "'");
    }
    return llvm::Error::success();
  }

  /// With every shape known, a constraint's names must be dims of them (a
  /// typo would make it constrain nothing).
  llvm::Error checkConstraintNames() const {
    if (!allShapesKnown())
      return llvm::Error::success();
    std::set<std::string> Dims = shapeDims();
    ConfigNode List = Node.member("constraints");
    for (size_t I = 0; I < Op.Constraints.size(); ++I) {
      llvm::Expected<SpecExpression> E = SpecExpression::parse(Op.Constraints[I].Value);
      if (!E)
        return E.takeError();
      for (const std::string &Name : E->names())
        if (!Dims.count(Name))
          return List.element(I).error("constraint '" + Op.Constraints[I].Value + "' names '" +
                                       Name + "', which no input's shape has (" +
                                       llvm::join(Dims, ", ") + ")");
    }
    return llvm::Error::success();
  }

  bool anyLeadingDims() const {
    return llvm::any_of(Op.Inputs,
                        [](const SpecInput &In) { return hasLeadingDims(In.Shape.Value); });
  }

  std::set<std::string> shapeDims() const {
    std::set<std::string> Dims;
    for (const SpecInput &In : Op.Inputs)
      for (const std::string &Dim : In.Shape.Value)
        if (isIdentifier(Dim))
          Dims.insert(Dim);
    return Dims;
  }

  /// The cases `upstream_diff` names are the op's.
  llvm::Error checkUpstreamDiffCases() const {
    if (!Op.UpstreamDiff.known())
      return llvm::Error::success();
    ConfigNode Cases = Node.member("upstream_diff")
                           .member(Op.UpstreamDiff.Source == ValueSource::User   ? "user"
                                   : Op.UpstreamDiff.Source == ValueSource::Code ? "code"
                                                                                 : "default")
                           .member("cases");
    size_t Index = 0;
    for (const std::string &Name : Op.UpstreamDiff.Value.Cases) {
      bool Known = Op.Cases.known() &&
                   llvm::any_of(Op.Cases.Value, [&](const SpecCase &C) { return C.Name == Name; });
      if (!Known && Name != "odd-sizes")
        return Cases.elements()[Index].error("upstream_diff names case '" + Name + "', which op '" +
                                             Op.Name + "' does not have");
      ++Index;
    }
    return llvm::Error::success();
  }

  llvm::Error readCases() {
    return readSourced<std::vector<SpecCase>>(
        Node, "cases", Op.Cases,
        [this](const ConfigNode &List) -> llvm::Expected<std::vector<SpecCase>> {
          if (llvm::Error E = List.expectList())
            return E;
          std::vector<SpecCase> Cases;
          for (const ConfigNode &Item : List.elements()) {
            llvm::Expected<SpecCase> Case = readCase(Item);
            if (!Case)
              return Case.takeError();
            if (llvm::any_of(Cases, [&](const SpecCase &C) { return C.Name == Case->Name; }))
              return Item.member("name").error("case '" + Case->Name + "' is listed twice");
            Cases.push_back(std::move(*Case));
          }
          return Cases;
        });
  }

  llvm::Expected<SpecCase> readCase(const ConfigNode &Item) const {
    if (llvm::Error E = Item.expectMapping())
      return E;
    if (llvm::Error E = Item.allowKeys(CaseKeys))
      return E;
    if (llvm::Error E = Item.requireKeys({"name", "dims"}))
      return E;
    SpecCase Case;
    llvm::Expected<std::string> Name = plainName(Item.member("name"));
    if (!Name)
      return Name.takeError();
    Case.Name = std::move(*Name);
    if (llvm::Error E = readCaseDims(Item.member("dims"), Case))
      return E;
    if (Item.has("dtypes")) {
      llvm::Expected<std::vector<std::string>> Dtypes = dtypeList(Item.member("dtypes"));
      if (!Dtypes)
        return Dtypes.takeError();
      Case.Dtypes = std::move(*Dtypes);
    }
    if (llvm::Error E = readCaseScalars(Item.member("scalars"), Case))
      return E;
    if (llvm::Error E = checkCaseConstraints(Item, Case))
      return E;
    return Case;
  }

  llvm::Error readCaseDims(const ConfigNode &Dims, SpecCase &Case) const {
    if (llvm::Error E = Dims.expectMapping())
      return E;
    std::set<std::string> Known = shapeDims();
    bool Complete = allShapesKnown();
    for (const ConfigNode &Member : Dims.members()) {
      bool Leading = Member.key() == LeadingDims && anyLeadingDims();
      if (Complete && !Known.count(Member.key()) && !Leading)
        return Member.error("case '" + Case.Name + "' sets dim '" + Member.key() +
                            "', which no input's shape has (" + llvm::join(Known, ", ") + ")");
      llvm::Expected<int64_t> Value = size(Member);
      if (!Value)
        return Value.takeError();
      Case.Dims[Member.key()] = *Value;
    }
    if (Complete)
      for (const std::string &Dim : Known)
        if (!Case.Dims.count(Dim))
          return Dims.error("case '" + Case.Name + "' gives no value for dim '" + Dim + "'");
    return llvm::Error::success();
  }

  llvm::Error readCaseScalars(const ConfigNode &Scalars, SpecCase &Case) const {
    if (!Scalars.exists())
      return llvm::Error::success();
    if (llvm::Error E = Scalars.expectMapping())
      return E;
    for (const ConfigNode &Member : Scalars.members()) {
      const SpecInput *In = Op.input(Member.key());
      if (!In || In->IsTensor)
        return Member.error("case '" + Case.Name + "' sets '" + Member.key() +
                            "', which is no scalar input of op '" + Op.Name + "'");
      if (Member.json().is_boolean())
        Case.Scalars[Member.key()] = Member.json().get<bool>() ? 1 : 0;
      else if (llvm::Expected<double> Value = number(Member))
        Case.Scalars[Member.key()] = *Value;
      else
        return Value.takeError();
    }
    return llvm::Error::success();
  }

  /// A case must satisfy the constraints it can be judged by (all their
  /// dims set); the boundary layer makes the cases that break them.
  llvm::Error checkCaseConstraints(const ConfigNode &Item, const SpecCase &Case) const {
    for (const Sourced<std::string> &Constraint : Op.Constraints) {
      llvm::Expected<SpecExpression> E = SpecExpression::parse(Constraint.Value);
      if (!E)
        return E.takeError();
      if (llvm::any_of(E->names(), [&](const std::string &N) { return !Case.Dims.count(N); }))
        continue;
      llvm::Expected<bool> Holds = E->holds(Case.Dims);
      if (!Holds)
        return Item.error("case '" + Case.Name + "': constraint '" + Constraint.Value +
                          "' cannot be evaluated: " + llvm::toString(Holds.takeError()));
      if (!*Holds)
        return Item.error("case '" + Case.Name + "' breaks constraint '" + Constraint.Value + "'");
    }
    return llvm::Error::success();
  }
};

llvm::Expected<ValidationSpec> readSpec(const ConfigNode &Top) {
  if (llvm::Error E = Top.expectMapping())
    return E;
  if (llvm::Error E = Top.allowKeys(TopKeys))
    return E;
  if (llvm::Error E = Top.requireKeys({"schema", "domain", "ops"}))
    return E;
  llvm::Expected<std::string> Schema = Top.member("schema").string();
  if (!Schema)
    return Schema.takeError();
  if (*Schema != ValidationSpecSchemaVersion)
    return Top.member("schema").error("unsupported schema '" + *Schema + "' (expected '" +
                                      ValidationSpecSchemaVersion + "')");
  ValidationSpec Spec;
  if (llvm::Error E = Top.readString("domain", Spec.Domain))
    return E;
  ConfigNode Ops = Top.member("ops");
  if (llvm::Error E = Ops.expectList())
    return E;
  for (const ConfigNode &Item : Ops.elements()) {
    llvm::Expected<SpecOp> Op = OpReader(Item).read();
    if (!Op)
      return Op.takeError();
    if (Spec.op(Op->Name))
      return Item.member("name").error("op '" + Op->Name + "' is listed twice");
    Spec.Ops.push_back(std::move(*Op));
  }
  return Spec;
}

} // namespace

llvm::Expected<ValidationSpec> parseValidationSpec(llvm::StringRef Text, ConfigSyntax Syntax,
                                                   const std::string &File) {
  llvm::Expected<ConfigDocument> Doc = parseConfig(Text, Syntax, File, "validation spec");
  if (!Doc)
    return Doc.takeError();
  return readSpec(Doc->root());
}

llvm::Expected<ValidationSpec> readValidationSpec(const std::string &Path) {
  llvm::StringRef Extension = llvm::sys::path::extension(Path);
  ConfigSyntax Syntax =
      Extension == ".yaml" || Extension == ".yml" ? ConfigSyntax::Yaml : ConfigSyntax::Json;
  llvm::Expected<ConfigDocument> Doc = readConfigFile(Path, Syntax, "validation spec");
  if (!Doc)
    return Doc.takeError();
  return readSpec(Doc->root());
}

} // namespace opmig
