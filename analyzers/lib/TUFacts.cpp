#include "opmig/analyze/TUFacts.h"

#include "nlohmann/json.hpp"

namespace opmig::analyze {

const char *toString(ParseSide S) { return S == ParseSide::Host ? "host" : "device"; }

void TUFacts::merge(const TUFacts &Other) {
  for (const auto &[Usr, Sym] : Other.Symbols) {
    auto [It, Inserted] = Symbols.try_emplace(Usr, Sym);
    if (Inserted)
      continue;
    SymbolFact &Mine = It->second;
    // A definition seen anywhere wins over declarations seen elsewhere.
    if (Sym.IsDefinition && !Mine.IsDefinition) {
      auto Refs = std::move(Mine.Refs);
      auto Specializations = std::move(Mine.Specializations);
      auto DeclaredIn = std::move(Mine.DeclaredIn);
      Mine = Sym;
      Mine.DeclaredIn.insert(DeclaredIn.begin(), DeclaredIn.end());
      Mine.Refs.insert(Refs.begin(), Refs.end());
      Mine.Specializations.insert(Specializations.begin(), Specializations.end());
    } else {
      Mine.Refs.insert(Sym.Refs.begin(), Sym.Refs.end());
    }
    Mine.Specializations.insert(Sym.Specializations.begin(), Sym.Specializations.end());
    Mine.DeclaredIn.insert(Sym.DeclaredIn.begin(), Sym.DeclaredIn.end());
  }
  for (const auto &[File, Refs] : Other.FileScopeRefs)
    FileScopeRefs[File].insert(Refs.begin(), Refs.end());
  Instantiations.insert(Instantiations.end(), Other.Instantiations.begin(),
                        Other.Instantiations.end());
  Includes.insert(Includes.end(), Other.Includes.begin(), Other.Includes.end());
  Registrations.insert(Registrations.end(), Other.Registrations.begin(), Other.Registrations.end());
  Errors.insert(Errors.end(), Other.Errors.begin(), Other.Errors.end());
  WrittenPointerFields.insert(Other.WrittenPointerFields.begin(), Other.WrittenPointerFields.end());
  Completed = Completed && Other.Completed;
}

NLOHMANN_JSON_SERIALIZE_ENUM(SymbolKind, {{SymbolKind::Kernel, "kernel"},
                                          {SymbolKind::Function, "function"},
                                          {SymbolKind::Template, "template"},
                                          {SymbolKind::Class, "class"},
                                          {SymbolKind::Enum, "enum"},
                                          {SymbolKind::Alias, "alias"},
                                          {SymbolKind::Variable, "variable"},
                                          {SymbolKind::Macro, "macro"}})
NLOHMANN_JSON_SERIALIZE_ENUM(ParseSide, {{ParseSide::Host, "host"}, {ParseSide::Device, "device"}})

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SymbolFact, Name, Kind, File, Line, BeginOffset, EndOffset,
                                   IsDefinition, EmittedWhereIncluded, Refs, Specializations,
                                   Parent, DeclaredIn)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(IncludeFact, Includer, Line, Spelling, Angled, Resolved,
                                   HasIncludeOnly)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RegistrationFact, Via, Namespace, OpName, Schema, Function, File,
                                   Line)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(InstantiationFact, Template, Specialization, Name, File, Line)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ParseErrorFact, File, Line, Message)

void to_json(nlohmann::json &J, const TUFacts &F) {
  J = nlohmann::json{{"MainFile", F.MainFile},
                     {"Side", F.Side},
                     {"Symbols", F.Symbols},
                     {"FileScopeRefs", F.FileScopeRefs},
                     {"Instantiations", F.Instantiations},
                     {"Includes", F.Includes},
                     {"Registrations", F.Registrations},
                     {"Errors", F.Errors},
                     {"WrittenPointerFields", F.WrittenPointerFields},
                     {"InputFiles", F.InputFiles},
                     {"Completed", F.Completed}};
}

void from_json(const nlohmann::json &J, TUFacts &F) {
  J.at("MainFile").get_to(F.MainFile);
  J.at("Side").get_to(F.Side);
  J.at("Symbols").get_to(F.Symbols);
  J.at("FileScopeRefs").get_to(F.FileScopeRefs);
  J.at("Instantiations").get_to(F.Instantiations);
  J.at("Includes").get_to(F.Includes);
  J.at("Registrations").get_to(F.Registrations);
  J.at("Errors").get_to(F.Errors);
  J.at("WrittenPointerFields").get_to(F.WrittenPointerFields);
  J.at("InputFiles").get_to(F.InputFiles);
  J.at("Completed").get_to(F.Completed);
}

} // namespace opmig::analyze
