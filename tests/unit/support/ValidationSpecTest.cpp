// The validation spec's writer, reader and merge
// (support/include/opmig/support/ValidationSpec.h).

#include "opmig/support/ValidationSpec.h"

#include "nlohmann/json.hpp"
#include "opmig/support/Errors.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace opmig {
namespace {

/// An op with one value of every source and every kind of field.
ValidationSpec sampleSpec() {
  SpecOp Op;
  Op.Name = "rms_norm";
  Op.Schema = "(Tensor(a!) out, Tensor x, Tensor w, float eps) -> ()";
  SpecInput Out{"out", "Tensor(a!)", true, {}, {}, {}, {}, {}};
  Out.Shape = Sourced<std::vector<std::string>>::code({"T", "D"}, "csrc/n.cu:7:3");
  Out.Dtypes = Sourced<DtypeSet>::code({{}, "x"}, "csrc/n.cu:9:3");
  SpecInput X{"x", "Tensor", true, {}, {}, {}, {}, {}};
  X.Shape = Sourced<std::vector<std::string>>::code({"T", "D"}, "csrc/n.cu:6:3");
  X.Dtypes = Sourced<DtypeSet>::code({{"float16", "bfloat16"}, ""}, "csrc/n.cu:12:3");
  X.Contiguous = Sourced<bool>::code(true, "csrc/n.cu:5:3");
  X.Device = Sourced<std::string>::code("cuda", "csrc/n.cu:4:3");
  X.Range = Sourced<ValueRange>::user({-2, 2});
  SpecInput W{"w", "Tensor", true, {}, {}, {}, {}, {}};
  W.Shape = Sourced<std::vector<std::string>>::user({"D"});
  W.Dtypes = Sourced<DtypeSet>::user({{"float32"}, ""});
  SpecInput Eps{"eps", "float", false, {}, {}, {}, {}, {}};
  Eps.Range = Sourced<ValueRange>::user({1e-6, 1e-6});
  Op.Inputs = {Out, X, W, Eps};
  Op.Constraints = {Sourced<std::string>::code("D % 8 == 0", "csrc/n.cu:10:3"),
                    Sourced<std::string>::user("T >= 1")};
  SpecOutput Written;
  Written.Argument = "out";
  Written.InPlace = Sourced<bool>::user(false);
  Op.Outputs = {Written};
  Op.Reference = Sourced<SpecReference>::user({"tests.ref:rms_norm", ""});
  Op.Tolerances = Sourced<std::map<std::string, Tolerance>>::byDefault(defaultTolerances());
  Op.Cases = Sourced<std::vector<SpecCase>>::user(
      {{"odd", {{"D", 72}, {"T", 7}}, {"float16"}, {{"eps", 1e-6}}},
       {"one", {{"D", 8}, {"T", 1}}, {}, {}}});
  SpecOp Scale;
  Scale.Name = "scale";
  Scale.Schema = "(Tensor x) -> Tensor";
  Scale.Inputs = {SpecInput{"x", "Tensor", true, {}, {}, {}, {}, {}}};
  SpecOutput Result;
  Result.Result = 0;
  Scale.Outputs = {Result};
  return {"norm", {Op, Scale}};
}

std::string messageOf(llvm::Error E) { return llvm::toString(std::move(E)); }

llvm::Expected<ValidationSpec> parseYaml(llvm::StringRef Text) {
  return parseValidationSpec(Text, ConfigSyntax::Yaml, "s.yaml");
}

TEST(ValidationSpecTest, RoundTripsEveryFieldAndSource) {
  std::string Text = serializeValidationSpec(sampleSpec());
  llvm::Expected<ValidationSpec> Parsed =
      parseValidationSpec(Text, ConfigSyntax::Json, "opmig-validation-spec.json");
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  EXPECT_EQ(serializeValidationSpec(*Parsed), Text);
  const SpecOp &Op = Parsed->Ops[0];
  EXPECT_EQ(Op.Inputs[0].Dtypes.Value.SameAs, "x");
  EXPECT_EQ(Op.Inputs[1].Shape.Source, ValueSource::Code);
  EXPECT_EQ(Op.Inputs[1].Shape.At, "csrc/n.cu:6:3");
  EXPECT_EQ(Op.Inputs[2].Shape.Source, ValueSource::User);
  EXPECT_EQ(Op.Inputs[2].Contiguous.Source, ValueSource::Todo);
  EXPECT_EQ(Op.Inputs[3].Range.Value.Low, 1e-6);
  EXPECT_EQ(Op.Tolerances.Source, ValueSource::Default);
  EXPECT_EQ(Op.Tolerances.Value.at("bfloat16").Rtol, 1.6e-2);
  EXPECT_EQ(Op.Cases.Value[0].Dims.at("D"), 72);
  EXPECT_EQ(Op.Cases.Value[0].Scalars.at("eps"), 1e-6);
  EXPECT_EQ(Op.Outputs[0].InPlace.Source, ValueSource::User);
  EXPECT_EQ(Parsed->Ops[1].Outputs[0].Result, 0u);
  EXPECT_EQ(Op.dimNames(), (std::vector<std::string>{"D", "T"}));
}

TEST(ValidationSpecTest, WritesTodoForWhatIsNotKnown) {
  nlohmann::json J = nlohmann::json::parse(serializeValidationSpec(sampleSpec()));
  EXPECT_EQ(J["schema"], "opmig.validation-spec/1");
  const nlohmann::json &Scale = J["ops"][1];
  EXPECT_EQ(Scale["inputs"][0]["shape"], "TODO");
  EXPECT_EQ(Scale["reference"], "TODO");
  EXPECT_EQ(Scale["cases"], "TODO");
  EXPECT_EQ(J["ops"][0]["inputs"][1]["shape"],
            nlohmann::json::parse(R"({"code": ["T", "D"], "at": "csrc/n.cu:6:3"})"));
  EXPECT_EQ(J["ops"][0]["inputs"][3].count("shape"), 0u) << "a scalar has no shape";
}

TEST(ValidationSpecTest, ReadsYamlWithSizesInShapes) {
  llvm::Expected<ValidationSpec> Spec = parseYaml(R"(schema: opmig.validation-spec/1
domain: d
ops:
- name: f
  inputs:
  - {name: x, type: Tensor, shape: {user: [B, 3, D]}, dtypes: {user: [float32]}}
  constraints: [{user: "D % 8 == 0"}]
  cases: {user: [{name: a, dims: {B: 1, D: 16}}]}
)");
  ASSERT_TRUE(bool(Spec)) << llvm::toString(Spec.takeError());
  EXPECT_EQ(Spec->Ops[0].Inputs[0].Shape.Value, (std::vector<std::string>{"B", "3", "D"}));
  EXPECT_EQ(Spec->Ops[0].Cases.Value[0].Dims.at("D"), 16);
}

TEST(ValidationSpecTest, LeadingDimsComeFirstAndACaseMayGiveThemOneSize) {
  llvm::Expected<ValidationSpec> Spec = parseYaml(R"(schema: opmig.validation-spec/1
domain: d
ops:
- name: f
  inputs:
  - {name: x, type: Tensor, shape: {code: ['...', hidden], at: 'a.cu:3:3'}}
  - {name: w, type: Tensor, shape: {code: [hidden], at: 'a.cu:4:3'}}
  cases: {user: [{name: rows, dims: {'...': 7, hidden: 33}}, {name: flat, dims: {hidden: 8}}]}
)");
  ASSERT_TRUE(bool(Spec)) << llvm::toString(Spec.takeError());
  const SpecOp &Op = Spec->Ops[0];
  EXPECT_EQ(Op.Inputs[0].Shape.Value, (std::vector<std::string>{"...", "hidden"}));
  EXPECT_TRUE(hasLeadingDims(Op.Inputs[0].Shape.Value));
  EXPECT_FALSE(hasLeadingDims(Op.Inputs[1].Shape.Value));
  EXPECT_EQ(Op.dimNames(), std::vector<std::string>{"hidden"});
  EXPECT_EQ(Op.Cases.Value[0].Dims.at("..."), 7);
  EXPECT_FALSE(Op.Cases.Value[1].Dims.count("..."));
  nlohmann::json Written = nlohmann::json::parse(serializeValidationSpec(*Spec));
  EXPECT_EQ(Written["ops"][0]["inputs"][0]["shape"]["code"],
            nlohmann::json::parse(R"(["...", "hidden"])"));
}

/// The spec `schema, domain, ops: [- name: f` and then `OpLines`, each
/// indented by two: the op's keys start on line 5, column 3.
std::string specWithOp(llvm::StringRef OpLines) {
  std::string Text = "schema: opmig.validation-spec/1\ndomain: d\nops:\n- name: f\n";
  llvm::SmallVector<llvm::StringRef> Lines;
  OpLines.split(Lines, '\n', -1, false);
  for (llvm::StringRef Line : Lines)
    Text += "  " + Line.str() + "\n";
  return Text;
}

struct ErrorCase {
  const char *Name;
  std::string Text;
  const char *Message;
};

TEST(ValidationSpecTest, EveryErrorNamesItsPlace) {
  const std::string X = "inputs:\n- {name: x, type: Tensor, shape: {user: [B, D]}}";
  const ErrorCase Cases[] = {
      {"schema", "schema: opmig.validation-spec/2\ndomain: d\nops: []\n",
       "s.yaml:1:1: unsupported schema 'opmig.validation-spec/2' (expected "
       "'opmig.validation-spec/1')"},
      {"top key", "schema: opmig.validation-spec/1\ndomian: d\nops: []\n",
       "s.yaml:2:1: unknown key 'domian' in the validation spec; did you mean 'domain'?"},
      {"missing ops", "schema: opmig.validation-spec/1\ndomain: d\n",
       "s.yaml:1:1: missing required key 'ops' in the validation spec"},
      {"op key", specWithOp("inputs: []\nrefernce: TODO"),
       "s.yaml:6:3: unknown key 'refernce' in 'ops[0]'; did you mean 'reference'?"},
      {"op name", "schema: opmig.validation-spec/1\ndomain: d\nops:\n- {name: 'f g', inputs: []}\n",
       "s.yaml:4:4: 'f g' in 'ops[0].name' must be a name of letters, digits, '_', '.' and '-'"},
      {"infinite", specWithOp("inputs:\n- {name: x, type: Tensor, range: {user: [0, .inf]}}"),
       "s.yaml:6:47: 'ops[0].inputs[0].range.user[1]' must be a finite number"},
      {"case name", specWithOp(X + "\ncases: {user: [{name: 'a b', dims: {B: 1, D: 2}}]}"),
       "s.yaml:7:19: 'a b' in 'ops[0].cases.user[0].name' must be a name of letters, digits, '_', "
       "'.' and '-'"},
      {"op twice",
       "schema: opmig.validation-spec/1\ndomain: d\nops:\n- {name: f, inputs: []}\n"
       "- {name: f, inputs: []}\n",
       "s.yaml:5:4: op 'f' is listed twice"},
      {"input key", specWithOp("inputs:\n- {name: x, type: Tensor, shpe: TODO}"),
       "s.yaml:6:29: unknown key 'shpe' in 'ops[0].inputs[0]'; did you mean 'shape'?"},
      {"input name", specWithOp("inputs:\n- {name: 'x y', type: Tensor}"),
       "s.yaml:6:6: input name 'x y' is not an identifier"},
      {"input twice", specWithOp("inputs:\n- {name: x, type: Tensor}\n- {name: x, type: int}"),
       "s.yaml:7:6: input 'x' is listed twice in op 'f'"},
      {"tensor key on scalar", specWithOp("inputs:\n- {name: n, type: int, shape: TODO}"),
       "s.yaml:6:26: 'shape' applies to tensor inputs only; 'n' is a int"},
      {"bare value", specWithOp("inputs:\n- {name: x, type: Tensor, shape: [B]}"),
       "s.yaml:6:29: 'ops[0].inputs[0].shape' must be \"TODO\" or a mapping {code: VALUE, at: "
       "WHERE}, {default: VALUE} or {user: VALUE}"},
      {"two sources",
       specWithOp("inputs:\n- {name: x, type: Tensor, shape: {user: [B], code: [B]}}"),
       "s.yaml:6:29: 'ops[0].inputs[0].shape' must be \"TODO\" or a mapping {code: VALUE, at: "
       "WHERE}, {default: VALUE} or {user: VALUE}"},
      {"source typo", specWithOp("inputs:\n- {name: x, type: Tensor, shape: {usr: [B]}}"),
       "s.yaml:6:37: unknown key 'usr' in 'ops[0].inputs[0].shape'; did you mean 'user'?"},
      {"at without code",
       specWithOp("inputs:\n- {name: x, type: Tensor, shape: {user: [B], at: 'a.cu:1:1'}}"),
       "s.yaml:6:48: 'at' goes with 'code' only, in 'ops[0].inputs[0].shape'"},
      {"bad dim", specWithOp("inputs:\n- {name: x, type: Tensor, shape: {user: [B, 2x]}}"),
       "s.yaml:6:47: 'ops[0].inputs[0].shape.user[1]' must be a dim name (an identifier), a "
       "size, or '...' first"},
      {"leading dims not first",
       specWithOp("inputs:\n- {name: x, type: Tensor, shape: {user: [B, '...']}}"),
       "s.yaml:6:47: '...' (any leading dims) may only be a shape's first dim"},
      {"leading dims in a case without them",
       specWithOp(X + "\ncases: {user: [{name: a, dims: {B: 1, D: 2, '...': 3}}]}"),
       "s.yaml:7:47: case 'a' sets dim '...', which no input's shape has (B, D)"},
      {"negative size", specWithOp("inputs:\n- {name: x, type: Tensor, shape: {user: [-1]}}"),
       "s.yaml:6:44: 'ops[0].inputs[0].shape.user[0]' must be a non-negative integer"},
      {"dtype", specWithOp("inputs:\n- {name: x, type: Tensor, dtypes: {user: [half]}}"),
       "s.yaml:6:45: unknown dtype 'half' in 'ops[0].inputs[0].dtypes.user[0]'; known dtypes: "
       "bool, uint8, int8, int16, uint16, int32, int64, float16, bfloat16, float32, float64, "
       "complex32, complex64, complex128, float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, "
       "float8_e5m2fnuz"},
      {"dtype twice",
       specWithOp("inputs:\n- {name: x, type: Tensor, dtypes: {user: [float16, float16]}}"),
       "s.yaml:6:54: dtype 'float16' is listed twice in 'ops[0].inputs[0].dtypes.user'"},
      {"empty dtypes", specWithOp("inputs:\n- {name: x, type: Tensor, dtypes: {user: []}}"),
       "s.yaml:6:38: 'ops[0].inputs[0].dtypes.user' must be a non-empty list of dtypes"},
      {"same_as", specWithOp("inputs:\n- {name: x, type: Tensor, dtypes: {user: {same_as: y}}}"),
       "s.yaml:6:29: 'same_as' names 'y', which is no other tensor input of op 'f'"},
      {"device", specWithOp("inputs:\n- {name: x, type: Tensor, device: {user: gpu}}"),
       "s.yaml:6:38: 'ops[0].inputs[0].device.user' must be cuda or cpu, not 'gpu'"},
      {"range", specWithOp("inputs:\n- {name: x, type: Tensor, range: {user: [1, 0]}}"),
       "s.yaml:6:37: 'ops[0].inputs[0].range.user': low 1.000000 is above high 0.000000"},
      {"range shape", specWithOp("inputs:\n- {name: x, type: Tensor, range: {user: 1}}"),
       "s.yaml:6:37: 'ops[0].inputs[0].range.user' must be a list [low, high] of two numbers"},
      {"constraint syntax", specWithOp(X + "\nconstraints: [{user: 'D %% 8 == 0'}]"),
       "s.yaml:7:18: bad constraint 'D %% 8 == 0' in 'ops[0].constraints[0].user': column 4: "
       "expected a number, a dim name or '(', not '%'"},
      {"constraint todo", specWithOp(X + "\nconstraints: [TODO]"),
       "s.yaml:7:17: 'ops[0].constraints[0]': a constraint cannot be TODO; remove it"},
      {"constraint dim", specWithOp(X + "\nconstraints: [{user: 'H % 8 == 0'}]"),
       "s.yaml:7:18: constraint 'H % 8 == 0' names 'H', which no input's shape has (B, D)"},
      {"output both", specWithOp(X + "\noutputs: [{result: 0, argument: x}]"),
       "s.yaml:7:14: 'ops[0].outputs[0]' must name one of 'result' (an index) or 'argument'"},
      {"output argument", specWithOp(X + "\noutputs: [{argument: y}]"),
       "s.yaml:7:14: 'y' is not a tensor input of op 'f'"},
      {"in_place on result", specWithOp(X + "\noutputs: [{result: 0, in_place: TODO}]"),
       "s.yaml:7:25: 'in_place' applies to argument outputs only"},
      {"reference kind", specWithOp(X + "\nreference: {user: {rust: f}}"),
       "s.yaml:7:22: unknown key 'rust' in 'ops[0].reference.user'; known keys: python, cpp"},
      {"python reference", specWithOp(X + "\nreference: {user: {python: 'tests.ref.f'}}"),
       "s.yaml:7:22: 'tests.ref.f' is not a Python function as module:function"},
      {"cpp reference", specWithOp(X + "\nreference: {user: {cpp: 'ns::f()'}}"),
       "s.yaml:7:22: 'ns::f()' is not a qualified C++ function name"},
      {"tolerance dtype", specWithOp(X + "\ntolerances: {user: {fp16: {atol: 0, rtol: 0}}}"),
       "s.yaml:7:23: unknown dtype 'fp16' in 'ops[0].tolerances.user'; known dtypes: bool, "
       "uint8, int8, int16, uint16, int32, int64, float16, bfloat16, float32, float64, "
       "complex32, complex64, complex128, float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, "
       "float8_e5m2fnuz"},
      {"tolerance missing", specWithOp(X + "\ntolerances: {user: {float16: {atol: 0}}}"),
       "s.yaml:7:23: missing required key 'rtol' in 'ops[0].tolerances.user.float16'"},
      {"tolerance negative", specWithOp(X + "\ntolerances: {user: {float16: {atol: -1, rtol: 0}}}"),
       "s.yaml:7:33: 'ops[0].tolerances.user.float16.atol' must not be negative"},
      {"case dim", specWithOp(X + "\ncases: {user: [{name: a, dims: {B: 1, D: 2, H: 3}}]}"),
       "s.yaml:7:47: case 'a' sets dim 'H', which no input's shape has (B, D)"},
      {"case missing dim", specWithOp(X + "\ncases: {user: [{name: a, dims: {B: 1}}]}"),
       "s.yaml:7:28: case 'a' gives no value for dim 'D'"},
      {"case size", specWithOp(X + "\ncases: {user: [{name: a, dims: {B: 1.5, D: 2}}]}"),
       "s.yaml:7:35: 'ops[0].cases.user[0].dims.B' must be a non-negative integer"},
      {"case twice",
       specWithOp(X + "\ncases: {user: [{name: a, dims: {B: 1, D: 2}}, {name: a, dims: {B: 1, "
                      "D: 2}}]}"),
       "s.yaml:7:50: case 'a' is listed twice"},
      {"case scalar",
       specWithOp(X + "\ncases: {user: [{name: a, dims: {B: 1, D: 2}, scalars: "
                      "{x: 1}}]}"),
       "s.yaml:7:58: case 'a' sets 'x', which is no scalar input of op 'f'"},
      {"case breaks constraint",
       specWithOp(X + "\nconstraints: [{user: 'D % 8 == 0'}]\ncases: {user: [{name: odd, dims: "
                      "{B: 1, D: 7}}]}"),
       "s.yaml:8:19: case 'odd' breaks constraint 'D % 8 == 0'"},
      {"case cannot evaluate",
       specWithOp(X + "\nconstraints: [{user: '8 % B == 0'}]\ncases: {user: [{name: z, dims: {B: "
                      "0, D: 7}}]}"),
       "s.yaml:8:19: case 'z': constraint '8 % B == 0' cannot be evaluated: division by zero"},
      {"case key", specWithOp(X + "\ncases: {user: [{name: a, dim: {}}]}"),
       "s.yaml:7:28: unknown key 'dim' in 'ops[0].cases.user[0]'; did you mean 'dims'?"},
  };
  for (const ErrorCase &Case : Cases) {
    llvm::Expected<ValidationSpec> Spec = parseYaml(Case.Text);
    ASSERT_FALSE(bool(Spec)) << Case.Name;
    llvm::Error E = Spec.takeError();
    EXPECT_TRUE(E.isA<InputError>()) << Case.Name;
    EXPECT_EQ(messageOf(std::move(E)), Case.Message) << Case.Name << "\n" << Case.Text;
  }
}

TEST(ValidationSpecTest, JsonErrorsCarryLineAndColumnToo) {
  llvm::Expected<ValidationSpec> Spec = parseValidationSpec(
      "{\"schema\": \"opmig.validation-spec/1\",\n \"domain\": \"d\",\n \"ops\": 3}",
      ConfigSyntax::Json, "s.json");
  ASSERT_FALSE(bool(Spec));
  EXPECT_EQ(messageOf(Spec.takeError()), "s.json:3:2: 'ops' must be a list");
}

TEST(ValidationSpecTest, ReadsYamlOrJsonByTheFileName) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("spec", Dir));
  std::string Yaml = (Dir + "/s.yaml").str(), Json = (Dir + "/s.json").str();
  std::string Text = "schema: opmig.validation-spec/1\ndomain: d\nops: []\n";
  for (const std::string &Path : {Yaml, Json}) {
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << Text;
  }
  llvm::Expected<ValidationSpec> FromYaml = readValidationSpec(Yaml);
  EXPECT_TRUE(bool(FromYaml)) << llvm::toString(FromYaml.takeError());
  llvm::Expected<ValidationSpec> FromJson = readValidationSpec(Json);
  ASSERT_FALSE(bool(FromJson));
  EXPECT_NE(messageOf(FromJson.takeError()).find(Json + ":1:"), std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(ValidationSpecTest, MergeKeepsUserValuesAndRefreshesTheRest) {
  ValidationSpec Previous = sampleSpec();
  // What the code says on the re-run: new locations, a shape the code now
  // knows for `w`, no code constraint, an input `eps` renamed `epsilon`.
  ValidationSpec Derived = sampleSpec();
  SpecOp &Op = Derived.Ops[0];
  Op.Inputs[1].Shape.At = "csrc/n.cu:8:3";
  Op.Inputs[1].Range = {};
  Op.Inputs[2].Shape = Sourced<std::vector<std::string>>::code({"D"}, "csrc/n.cu:11:3");
  Op.Inputs[2].Dtypes = {};
  Op.Inputs[3].Name = "epsilon";
  Op.Inputs[3].Range = {};
  Op.Constraints = {Sourced<std::string>::code("D % 16 == 0", "csrc/n.cu:10:3")};
  Op.Outputs[0].InPlace = {};
  Op.Reference = {};
  Op.Tolerances = Sourced<std::map<std::string, Tolerance>>::byDefault({{"float32", {1, 1}}});
  Op.Cases = {};
  ValidationSpec Merged = mergeValidationSpecs(Derived, Previous);
  const SpecOp &M = Merged.Ops[0];
  EXPECT_EQ(M.Inputs[1].Shape.At, "csrc/n.cu:8:3") << "code values refresh";
  EXPECT_EQ(M.Inputs[1].Range.Source, ValueSource::User);
  EXPECT_EQ(M.Inputs[2].Shape.Source, ValueSource::User) << "the user's shape wins";
  EXPECT_EQ(M.Inputs[2].Dtypes.Value.Names, std::vector<std::string>{"float32"});
  EXPECT_EQ(M.Inputs[3].Range.Source, ValueSource::Todo) << "a renamed input starts afresh";
  ASSERT_EQ(M.Constraints.size(), 2u);
  EXPECT_EQ(M.Constraints[0].Value, "D % 16 == 0");
  EXPECT_EQ(M.Constraints[1].Value, "T >= 1");
  EXPECT_EQ(M.Outputs[0].InPlace.Source, ValueSource::User);
  EXPECT_EQ(M.Reference.Value.Python, "tests.ref:rms_norm");
  EXPECT_EQ(M.Tolerances.Value.size(), 1u) << "defaults refresh";
  EXPECT_EQ(M.Cases.Value.size(), 2u);
}

TEST(ValidationSpecTest, MergeDropsOpsTheCodeNoLongerHas) {
  ValidationSpec Derived = sampleSpec();
  Derived.Ops.erase(Derived.Ops.begin());
  ValidationSpec Merged = mergeValidationSpecs(Derived, sampleSpec());
  ASSERT_EQ(Merged.Ops.size(), 1u);
  EXPECT_EQ(Merged.Ops[0].Name, "scale");
}

TEST(ValidationSpecTest, MergeKeepsNoTensorFieldOnAnInputThatBecameAScalar) {
  ValidationSpec Derived = sampleSpec();
  Derived.Ops[0].Inputs[2] = SpecInput{"w", "float", false, {}, {}, {}, {}, {}};
  ValidationSpec Merged = mergeValidationSpecs(Derived, sampleSpec());
  EXPECT_FALSE(Merged.Ops[0].Inputs[2].Shape.known());
  std::string Text = serializeValidationSpec(Merged);
  EXPECT_TRUE(bool(parseValidationSpec(Text, ConfigSyntax::Json, "m.json")));
}

// The examples of docs/validation-spec.md read: each op in a ```json block
// (wrapped into a spec) and each ```yaml spec.
TEST(ValidationSpecTest, TheDocumentedExamplesRead) {
  std::string Path = std::string(OPMIG_SOURCE_DIR) + "/docs/validation-spec.md";
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Doc = llvm::MemoryBuffer::getFile(Path);
  ASSERT_TRUE(bool(Doc)) << Path;
  llvm::StringRef Rest = (*Doc)->getBuffer();
  unsigned Ops = 0, Yaml = 0;
  while (true) {
    size_t Open = Rest.find("\n```");
    if (Open == llvm::StringRef::npos)
      break;
    llvm::StringRef Fence = Rest.substr(Open + 4).split('\n').first;
    llvm::StringRef Body = Rest.substr(Open + 4 + Fence.size() + 1);
    size_t Close = Body.find("\n```");
    ASSERT_NE(Close, llvm::StringRef::npos);
    Rest = Body.substr(Close + 4);
    Body = Body.take_front(Close + 1);
    if (Fence == "json" && Body.starts_with("{\n  \"name\"")) {
      std::string Spec =
          R"({"schema": "opmig.validation-spec/1", "domain": "d", "ops": [)" + Body.str() + "]}";
      llvm::Expected<ValidationSpec> Read = parseValidationSpec(Spec, ConfigSyntax::Json, Path);
      EXPECT_TRUE(bool(Read)) << llvm::toString(Read.takeError()) << "\n" << Body.str();
      ++Ops;
    } else if (Fence == "yaml") {
      llvm::Expected<ValidationSpec> Read = parseValidationSpec(Body, ConfigSyntax::Yaml, Path);
      EXPECT_TRUE(bool(Read)) << llvm::toString(Read.takeError()) << "\n" << Body.str();
      ++Yaml;
    }
  }
  EXPECT_EQ(Ops, 2u);
  EXPECT_EQ(Yaml, 1u);
}

// `upstream_diff`: where the user says the migration changed the math on
// purpose (the diff layer of `opmig validate --source`). Optional: a spec
// without it is written without it.
TEST(ValidationSpecTest, UpstreamDiffIsTheUsersAndOptional) {
  EXPECT_EQ(serializeValidationSpec(sampleSpec()).find("upstream_diff"), std::string::npos);
  const std::string X = "inputs:\n- {name: x, type: Tensor, shape: {user: [B]}}\n"
                        "cases: {user: [{name: odd, dims: {B: 7}}]}\n";
  llvm::Expected<ValidationSpec> Parsed =
      parseYaml(specWithOp(X + "upstream_diff: {user: {reason: 'fused the bias', cases: [odd],\n"
                               "  tolerances: {float16: {atol: 1.0e-3, rtol: 0}}}}"));
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  const SpecOp &Op = Parsed->Ops[0];
  ASSERT_EQ(Op.UpstreamDiff.Source, ValueSource::User);
  EXPECT_EQ(Op.UpstreamDiff.Value.Reason, "fused the bias");
  EXPECT_EQ(Op.UpstreamDiff.Value.Cases, std::vector<std::string>{"odd"});
  EXPECT_EQ(Op.UpstreamDiff.Value.Tolerances.at("float16").Atol, 1e-3);
  nlohmann::json J = nlohmann::json::parse(serializeValidationSpec(*Parsed));
  EXPECT_EQ(J["ops"][0]["upstream_diff"]["user"]["reason"], "fused the bias");
  ValidationSpec Derived = *Parsed;
  Derived.Ops[0].UpstreamDiff = {};
  EXPECT_EQ(mergeValidationSpecs(Derived, *Parsed).Ops[0].UpstreamDiff.Value.Reason,
            "fused the bias")
      << "a re-run of migrate keeps it";
  llvm::Expected<ValidationSpec> Unknown = parseYaml(
      specWithOp(X + "upstream_diff: {user: {reason: r, cases: [even], tolerances: {}}}"));
  ASSERT_FALSE(bool(Unknown));
  EXPECT_EQ(messageOf(Unknown.takeError()),
            "s.yaml:8:45: upstream_diff names case 'even', which op 'f' does not have");
  llvm::Expected<ValidationSpec> NoReason =
      parseYaml(specWithOp(X + "upstream_diff: {user: {tolerances: {}}}"));
  ASSERT_FALSE(bool(NoReason));
  EXPECT_NE(messageOf(NoReason.takeError()).find("missing required key 'reason'"),
            std::string::npos);
}

} // namespace
} // namespace opmig
