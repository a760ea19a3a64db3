//===- UpstreamRegistration.cpp - The upstream entries as torch ops -------===//

#include "opmig/validate/UpstreamRegistration.h"

#include "opmig/support/Errors.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <map>

namespace opmig::validate {

namespace {

using llvm::StringRef;

/// `a, b(c, d), e[1, 2]` split at the commas outside brackets.
std::vector<StringRef> splitTopLevel(StringRef Text) {
  std::vector<StringRef> Parts;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '(' || C == '[')
      ++Depth;
    else if (C == ')' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Parts.push_back(Text.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  if (StringRef Last = Text.substr(Start).trim(); !Last.empty())
    Parts.push_back(Last);
  return Parts;
}

struct SchemaParts {
  std::vector<std::string> ArgumentTypes;
  std::string Returns;
};

/// `(Tensor(a!) out, *, float v=1.0) -> ()` as argument types and returns.
llvm::Expected<SchemaParts> splitSchema(StringRef Schema) {
  Schema = Schema.trim();
  size_t Arrow = Schema.rfind("->");
  if (!Schema.starts_with("(") || Arrow == StringRef::npos)
    return inputError("the schema `", Schema.str(), "` does not parse");
  StringRef Arguments = Schema.take_front(Arrow).trim();
  if (!Arguments.consume_back(")"))
    return inputError("the schema `", Schema.str(), "` does not parse");
  Arguments = Arguments.drop_front();
  SchemaParts Parts;
  Parts.Returns = Schema.substr(Arrow + 2).trim().str();
  for (StringRef Argument : splitTopLevel(Arguments)) {
    if (Argument == "*")
      continue;
    Argument = Argument.split('=').first.trim();
    size_t Space = Argument.rfind(' ');
    if (Space == StringRef::npos)
      return inputError("the schema argument `", Argument.str(), "` has no name");
    Parts.ArgumentTypes.push_back(Argument.take_front(Space).trim().str());
  }
  return Parts;
}

/// Element types a plain, optional and list form map to.
struct TypeMapping {
  const char *Plain, *Optional, *List;
};

const std::map<std::string, TypeMapping> &typeMappings() {
  static const std::map<std::string, TypeMapping> Mappings = {
      {"Tensor", {"const at::Tensor &", "const std::optional<at::Tensor> &", "at::TensorList"}},
      {"int", {"int64_t", "std::optional<int64_t>", "at::IntArrayRef"}},
      {"SymInt", {"c10::SymInt", "std::optional<c10::SymInt>", "c10::SymIntArrayRef"}},
      {"float", {"double", "std::optional<double>", "at::ArrayRef<double>"}},
      {"bool", {"bool", "std::optional<bool>", nullptr}},
      {"str", {"c10::string_view", "std::optional<c10::string_view>", nullptr}},
      {"Scalar", {"const at::Scalar &", "const std::optional<at::Scalar> &", nullptr}},
      {"ScalarType", {"at::ScalarType", "std::optional<at::ScalarType>", nullptr}},
      {"Device", {"at::Device", "std::optional<at::Device>", nullptr}},
      {"Layout", {"at::Layout", "std::optional<at::Layout>", nullptr}},
      {"MemoryFormat", {"at::MemoryFormat", "std::optional<at::MemoryFormat>", nullptr}},
      {"Generator", {"at::Generator", "std::optional<at::Generator>", nullptr}},
  };
  return Mappings;
}

/// `Tensor(a!)?` -> base `Tensor`, mutable, optional; `int[2]` -> list.
struct ParsedType {
  std::string Base;
  bool Mutable = false, Optional = false, List = false, OptionalElements = false;
};

ParsedType parseType(StringRef Type) {
  ParsedType P;
  P.Optional = Type.consume_back("?");
  if (size_t Open = Type.find('['); Open != StringRef::npos && Type.ends_with("]")) {
    P.List = true;
    Type = Type.take_front(Open);
    P.OptionalElements = Type.consume_back("?");
  }
  if (size_t Open = Type.find('('); Open != StringRef::npos) {
    P.Mutable = Type.substr(Open).contains('!');
    Type = Type.take_front(Open);
  }
  P.Base = Type.trim().str();
  return P;
}

std::string returnElement(StringRef Element) {
  // `Tensor(a!) out` -> `Tensor(a!)`: a named return.
  StringRef Type = Element.trim().split(' ').first;
  ParsedType P = parseType(Type);
  if (P.Base == "Tensor")
    return P.List ? "std::vector<at::Tensor>" : "at::Tensor";
  static const std::map<std::string, std::string> Scalars = {
      {"int", "int64_t"},    {"SymInt", "c10::SymInt"}, {"float", "double"},
      {"bool", "bool"},      {"Scalar", "at::Scalar"},  {"ScalarType", "at::ScalarType"},
      {"str", "std::string"}};
  auto It = Scalars.find(P.Base);
  return It == Scalars.end() || P.List || P.Optional ? "" : It->second;
}

std::string qualifiedCall(StringRef Function) {
  return Function.starts_with("::") ? Function.str() : "::" + Function.str();
}

StringRef unqualified(StringRef Function) {
  return Function.rsplit("::").second.empty() ? Function : Function.rsplit("::").second;
}

llvm::Expected<std::string> wrapperFor(const UpstreamEntry &E) {
  llvm::Expected<SchemaParts> Parts = splitSchema(E.Schema);
  if (!Parts)
    return Parts.takeError();
  llvm::Expected<std::string> Returns = dispatcherReturnType(Parts->Returns);
  if (!Returns)
    return Returns.takeError();
  std::vector<std::string> Parameters, Arguments;
  std::string Copies;
  for (size_t I = 0; I < Parts->ArgumentTypes.size(); ++I) {
    llvm::Expected<std::string> Type = dispatcherArgumentType(Parts->ArgumentTypes[I]);
    if (!Type)
      return Type.takeError();
    std::string Name = "a" + std::to_string(I);
    Parameters.push_back(*Type + (llvm::StringRef(*Type).ends_with("&") ? "" : " ") + Name);
    // The dispatcher passes a written optional tensor as a const reference;
    // an entry that takes `std::optional<at::Tensor> &` gets a copy, which
    // holds the same tensor, so what it writes lands in the caller's.
    ParsedType P = parseType(Parts->ArgumentTypes[I]);
    if (P.Base == "Tensor" && P.Optional && P.Mutable && !P.List) {
      Copies += "  std::optional<at::Tensor> " + Name + "_written = " + Name + ";\n";
      Name += "_written";
    }
    Arguments.push_back(Name);
  }
  std::string Call = qualifiedCall(E.Function) + "(" + llvm::join(Arguments, ", ") + ")";
  return *Returns + " upstream_" + E.Op + "(" + llvm::join(Parameters, ", ") + ") {\n" + Copies +
         "  " + (*Returns == "void" ? Call : "return " + Call) + ";\n}\n";
}

} // namespace

llvm::Expected<std::string> dispatcherArgumentType(StringRef Type) {
  ParsedType P = parseType(Type.trim());
  auto It = typeMappings().find(P.Base);
  if (It == typeMappings().end())
    return inputError("the schema type `", Type.str(), "` is not mapped to C++ in this release");
  const TypeMapping &M = It->second;
  if (P.List) {
    if (P.Base == "Tensor" && P.OptionalElements)
      return std::string("const c10::List<std::optional<at::Tensor>> &");
    if (!M.List || P.OptionalElements)
      return inputError("the schema type `", Type.str(), "` is not mapped to C++ in this release");
    if (P.Optional)
      return P.Base == "int" ? std::string("at::OptionalIntArrayRef")
                             : "std::optional<" + std::string(M.List) + ">";
    return std::string(M.List);
  }
  if (P.Optional)
    return std::string(M.Optional);
  if (P.Base == "Tensor" && P.Mutable)
    return std::string("at::Tensor &");
  return std::string(M.Plain);
}

llvm::Expected<std::string> dispatcherReturnType(StringRef Returns) {
  Returns = Returns.trim();
  if (Returns == "()")
    return std::string("void");
  bool Tuple = Returns.starts_with("(") && Returns.ends_with(")");
  StringRef Inner = Tuple ? Returns.drop_front().drop_back() : Returns;
  std::vector<std::string> Elements;
  for (StringRef Element : Tuple ? splitTopLevel(Inner) : std::vector<StringRef>{Inner}) {
    std::string Type = returnElement(Element);
    if (Type.empty())
      return inputError("the schema returns `", Returns.str(),
                        "`, which is not mapped to C++ in this release");
    Elements.push_back(std::move(Type));
  }
  if (Elements.size() == 1 && !Tuple)
    return Elements.front();
  return "std::tuple<" + llvm::join(Elements, ", ") + ">";
}

std::string upstreamNamespace(StringRef OpNamespace) { return OpNamespace.str() + "_upstream"; }

llvm::Expected<std::string> upstreamRegistrationSource(const std::string &Namespace,
                                                       const std::vector<UpstreamEntry> &Entries) {
  std::string Includes, Declarations, Wrappers, Defs, Impls;
  std::vector<std::string> Headers;
  auto Include = [&](const std::string &Header) {
    if (Header.empty() || llvm::is_contained(Headers, Header))
      return;
    Headers.push_back(Header);
    bool Angled = llvm::StringRef(Header).starts_with("<");
    Includes += "#include " + (Angled ? Header : "\"" + Header + "\"") + "\n";
  };
  for (const UpstreamEntry &E : Entries) {
    Include(E.Header);
    for (const std::string &Header : E.Includes)
      Include(Header);
    if (!E.Declaration.empty())
      Declarations += "\n// " + E.Function +
                      " as its defining TU writes it (no header declares it)\n" + E.Declaration +
                      "\n";
    llvm::Expected<std::string> Wrapper = wrapperFor(E);
    if (!Wrapper)
      return inputError("op ", E.Op, ": ", llvm::toString(Wrapper.takeError()));
    Wrappers += "\n" + *Wrapper;
    Defs += "  m.def(\"" + E.Op + E.Schema + "\");\n";
    Impls += "  m.impl(\"" + E.Op + "\", TORCH_FN(upstream_" + E.Op + "));\n";
  }
  return "// Generated by opmig validate for its diff and perf layers: the upstream entries,\n"
         "// built unchanged from the upstream tree, registered under\n// " +
         Namespace +
         " with the migrated ops' schemas. Not the upstream's own binding TU.\n"
         "#include <ATen/ATen.h>\n#include <torch/library.h>\n\n" +
         Includes + Declarations + "\nnamespace {\n" + Wrappers +
         "} // namespace\n\nTORCH_LIBRARY(" + Namespace + ", m) {\n" + Defs +
         "}\n\nTORCH_LIBRARY_IMPL(" + Namespace + ", CUDA, m) {\n" + Impls + "}\n";
}

std::string declaringHeader(const std::string &Function, const std::vector<std::string> &Headers) {
  std::string Name = unqualified(Function).str();
  llvm::Regex Declares("(^|[^A-Za-z0-9_.>:])" + Name + "[ \t]*\\(");
  std::string Found;
  for (const std::string &Header : Headers) {
    auto Buffer = llvm::MemoryBuffer::getFile(Header);
    if (!Buffer)
      continue;
    llvm::SmallVector<StringRef> Lines;
    (*Buffer)->getBuffer().split(Lines, '\n');
    bool Declared = llvm::any_of(Lines, [&](StringRef Line) {
      StringRef Code = Line.ltrim();
      return !Code.starts_with("#") && !Code.starts_with("//") && Declares.match(Code);
    });
    if (!Declared)
      continue;
    StringRef File = llvm::sys::path::stem(Header);
    if (File.contains("ops") || File.contains("api"))
      return Header;
    if (Found.empty())
      Found = Header;
  }
  return Found;
}

} // namespace opmig::validate
