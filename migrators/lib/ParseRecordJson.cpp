#include "ParseRecordJson.h"

namespace opmig::migrate {

using nlohmann::json;

namespace {

json editJson(const FileEdit &E) {
  return {{"offset", E.Offset},
          {"length", E.Length},
          {"text", E.Text},
          {"order", static_cast<int>(E.Order)},
          {"why", E.Why}};
}

FileEdit editFrom(const json &J) {
  FileEdit E;
  E.Offset = J.at("offset").get<unsigned>();
  E.Length = J.at("length").get<unsigned>();
  E.Text = J.at("text").get<std::string>();
  E.Order = static_cast<EditOrder>(J.at("order").get<int>());
  E.Why = J.at("why").get<std::string>();
  return E;
}

json observationJson(const FileObservation &O) {
  json Unseen = json::array(), Items = json::array(), Definitions = json::array();
  for (const UnseenRange &R : O.Unseen)
    Unseen.push_back({R.Begin, R.End, static_cast<int>(R.Reason)});
  for (const TopLevelItem &I : O.Items)
    Items.push_back({static_cast<int>(I.Role), I.Begin, I.End});
  for (const FoundDefinition &D : O.Definitions)
    Definitions.push_back({{"begin", D.Begin},
                           {"end", D.End},
                           {"line", D.Line},
                           {"names", D.Names},
                           {"registration", D.Registration}});
  return {{"unseen", Unseen},
          {"handled", O.Handled},
          {"seen_includes", O.SeenIncludes},
          {"items", Items},
          {"definitions", Definitions}};
}

FileObservation observationFrom(const json &J) {
  FileObservation O;
  for (const json &R : J.at("unseen"))
    O.Unseen.push_back({R.at(0).get<unsigned>(), R.at(1).get<unsigned>(),
                        static_cast<UnseenReason>(R.at(2).get<int>())});
  O.Handled = J.at("handled").get<std::set<unsigned>>();
  O.SeenIncludes = J.at("seen_includes").get<std::set<unsigned>>();
  for (const json &I : J.at("items")) {
    TopLevelItem Item;
    Item.Role = static_cast<TopLevelItem::Kind>(I.at(0).get<int>());
    Item.Begin = I.at(1).get<unsigned>();
    Item.End = I.at(2).get<unsigned>();
    O.Items.push_back(Item);
  }
  for (const json &D : J.at("definitions")) {
    FoundDefinition Found;
    Found.Begin = D.at("begin").get<unsigned>();
    Found.End = D.at("end").get<unsigned>();
    Found.Line = D.at("line").get<unsigned>();
    Found.Names = D.at("names").get<std::vector<std::string>>();
    Found.Registration = D.at("registration").get<bool>();
    O.Definitions.push_back(std::move(Found));
  }
  return O;
}

json issueJson(const ParseIssue &I) {
  const Finding &F = I.Issue;
  json J = {{"id", F.Id},         {"error", F.Level == Severity::Error},
            {"file", F.File},     {"line", F.Line},
            {"column", F.Column}, {"message", F.Message},
            {"fix", F.Fix}};
  if (I.Offset)
    J["offset"] = *I.Offset;
  return J;
}

ParseIssue issueFrom(const json &J) {
  ParseIssue I;
  I.Issue = rewriteIssue(J.at("id").get<std::string>().c_str(), J.at("file").get<std::string>(),
                         J.at("line").get<unsigned>(), J.at("message").get<std::string>(),
                         J.at("error").get<bool>());
  I.Issue.Column = J.at("column").get<unsigned>();
  I.Issue.Fix = J.at("fix").get<std::string>();
  if (J.contains("offset"))
    I.Offset = J.at("offset").get<unsigned>();
  return I;
}

} // namespace

json parseRecordJson(const ParseRecord &Record) {
  json Files = json::object(), Edits = json::object(), Issues = json::array();
  for (const auto &[Path, Seen] : Record.Files)
    Files[Path] = observationJson(Seen);
  for (const auto &[Path, List] : Record.Edits) {
    json &Out = Edits[Path] = json::array();
    for (const FileEdit &E : List)
      Out.push_back(editJson(E));
  }
  for (const ParseIssue &I : Record.Issues)
    Issues.push_back(issueJson(I));
  return {{"tu", Record.TU},       {"side", Record.Side},
          {"flags", Record.Flags}, {"completed", Record.Completed},
          {"files", Files},        {"edits", Edits},
          {"issues", Issues}};
}

ParseRecord parseRecordFromJson(const json &J) {
  ParseRecord Record;
  Record.TU = J.at("tu").get<std::string>();
  Record.Side = J.at("side").get<std::string>();
  Record.Flags = J.at("flags").get<std::vector<std::string>>();
  Record.Completed = J.at("completed").get<bool>();
  for (const auto &[Path, Seen] : J.at("files").items())
    Record.Files[Path] = observationFrom(Seen);
  for (const auto &[Path, List] : J.at("edits").items())
    for (const json &E : List)
      Record.Edits[Path].push_back(editFrom(E));
  for (const json &I : J.at("issues"))
    Record.Issues.push_back(issueFrom(I));
  return Record;
}

} // namespace opmig::migrate
