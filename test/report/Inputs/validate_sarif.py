"""validate_sarif.py [--github] [--relative] [--expect-rules=LIST] SCHEMA FILE...

Validates SARIF logs against the SARIF 2.1.0 JSON schema (draft-04) and, with
--github, against the rules GitHub code scanning applies when it ingests a
file (docs.github.com "SARIF support for code scanning"; the GH10xx rules of
the SARIF validator): every result has a ruleId, a message text and 1 to 10
locations, each with a physical location whose artifact URI is relative or
file:// and whose region has a startLine; every rule has a short and a full
description and help text; help links (helpUri, informationUri) are not local
file:// paths; at most 25,000 rules and results per run.

--relative requires every result's and related location's URI to be relative
with uriBaseId %SRCROOT% (what GitHub needs to place alerts in the repository).

--expect-rules=LIST (the output of --list-checks) requires a rule for every
check it names, with the check's summary as its shortDescription.

Then prints one line per rule and per result, for FileCheck:
  rule <id> index=<i> level=<level> name=<name> help=<markdown|text>
  result <ruleId> <uri>:<line>:<col>-<endLine>:<endCol> level=<l> related=<n> fixes=<n>
  fix <uri> offset=<byteOffset> length=<byteLength> text=<insertedContent>
  notification <level> <text>
"""
import json
import re
import sys

import jsonschema

URI_REFERENCE = re.compile(r"^[A-Za-z0-9\-._~!$&'()*+,;=:@/?#%]*$")


def github_errors(log):
    errors = []
    if log.get("version") != "2.1.0":
        errors.append("version must be 2.1.0")
    if "$schema" not in log:
        errors.append("$schema is required")
    for run in log.get("runs", []):
        driver = run["tool"]["driver"]
        rules = driver.get("rules", [])
        for key in ("informationUri",):
            if driver.get(key, "").startswith("file:"):
                errors.append("driver.%s points to a local file" % key)
        if len(rules) > 25000 or len(run.get("results", [])) > 25000:
            errors.append("too many rules or results")
        for rule in rules:
            if rule.get("helpUri", "").startswith("file:"):
                errors.append("rule %s: helpUri points to a local file" % rule["id"])
            for field in ("shortDescription", "fullDescription", "help"):
                if not rule.get(field, {}).get("text"):
                    errors.append("rule %s: %s.text is required" % (rule["id"], field))
        for i, result in enumerate(run.get("results", [])):
            where = "result %d (%s)" % (i, result.get("ruleId"))
            if not result.get("ruleId"):
                errors.append(where + ": ruleId is required")
            if "ruleIndex" in result and rules[result["ruleIndex"]]["id"] != result.get("ruleId"):
                errors.append(where + ": ruleIndex names another rule")
            if not result.get("message", {}).get("text"):
                errors.append(where + ": message.text is required")
            locations = result.get("locations", [])
            if not 1 <= len(locations) <= 10:
                errors.append(where + ": needs 1 to 10 locations")
            for loc in locations + result.get("relatedLocations", []):
                phys = loc.get("physicalLocation", {})
                uri = phys.get("artifactLocation", {}).get("uri", "")
                if not uri:
                    errors.append(where + ": physicalLocation.artifactLocation.uri is required")
                elif ":" in uri.split("/")[0] and not uri.startswith("file://"):
                    errors.append(where + ": URI %s is neither relative nor file://" % uri)
                if phys.get("region", {}).get("startLine", 0) < 1:
                    errors.append(where + ": region.startLine is required")
            for key, value in result.get("partialFingerprints", {}).items():
                if not isinstance(value, str):
                    errors.append(where + ": fingerprint %s is not a string" % key)
    return errors


def relative_errors(log):
    errors = []
    for run in log.get("runs", []):
        for i, result in enumerate(run.get("results", [])):
            for loc in result.get("locations", []) + result.get("relatedLocations", []):
                art = loc.get("physicalLocation", {}).get("artifactLocation", {})
                if art.get("uriBaseId") != "%SRCROOT%" or ":" in art.get("uri", ""):
                    errors.append("result %d (%s): URI %s is not relative to %%SRCROOT%%"
                                  % (i, result.get("ruleId"), art.get("uri")))
    return errors


def uri_errors(node, path="$"):
    """The schema's uri formats are not checked without extra packages."""
    errors = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("uri", "helpUri", "informationUri") and isinstance(value, str):
                if not URI_REFERENCE.match(value):
                    errors.append("%s.%s: %r is not a URI reference" % (path, key, value))
            errors += uri_errors(value, path + "." + key)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            errors += uri_errors(value, "%s[%d]" % (path, i))
    return errors


def where(phys):
    uri = phys["artifactLocation"]["uri"]
    r = phys.get("region", {})
    return "%s:%s:%s-%s:%s" % (uri, r.get("startLine"), r.get("startColumn"),
                               r.get("endLine"), r.get("endColumn"))


def describe(log):
    for run in log["runs"]:
        for i, rule in enumerate(run["tool"]["driver"].get("rules", [])):
            print("rule %s index=%d level=%s name=%s help=%s" % (
                rule["id"], i, rule.get("defaultConfiguration", {}).get("level"),
                rule.get("name"), "markdown" if "markdown" in rule.get("help", {}) else "text"))
        for result in run.get("results", []):
            locs = result.get("locations", [])
            phys = locs[0].get("physicalLocation") if locs else None
            print("result %s %s level=%s related=%d fixes=%d" % (
                result["ruleId"], where(phys) if phys else "(no physical location)",
                result.get("level"), len(result.get("relatedLocations", [])),
                len(result.get("fixes", []))))
            for rel in result.get("relatedLocations", []):
                print("  related %s %s" % (where(rel["physicalLocation"]), rel["message"]["text"]))
            for fix in result.get("fixes", []):
                for change in fix["artifactChanges"]:
                    for rep in change["replacements"]:
                        d = rep["deletedRegion"]
                        print("  fix %s offset=%s length=%s text=%s" % (
                            change["artifactLocation"]["uri"], d.get("byteOffset"),
                            d.get("byteLength"), rep.get("insertedContent", {}).get("text", "")))
        for inv in run.get("invocations", []):
            print("invocation executionSuccessful=%s" % str(inv["executionSuccessful"]).lower())
            for n in inv.get("toolExecutionNotifications", []):
                print("notification %s %s" % (n.get("level"), n["message"]["text"]))


def rule_errors(log, listing):
    errors = []
    rules = {r["id"]: r for run in log["runs"] for r in run["tool"]["driver"].get("rules", [])}
    with open(listing) as f:
        for line in f:
            if not line.startswith("    "):
                continue
            check, _, summary = line.strip().partition(" ")
            rule = rules.get(check)
            if rule is None:
                errors.append("no rule for check %s" % check)
            elif rule["shortDescription"]["text"] != summary.strip():
                errors.append("rule %s: shortDescription is not the summary" % check)
    return errors


def main(argv):
    github = "--github" in argv
    relative = "--relative" in argv
    listing = [a.split("=", 1)[1] for a in argv if a.startswith("--expect-rules=")]
    args = [a for a in argv if a not in ("--github", "--relative")
            and not a.startswith("--expect-rules=")]
    with open(args[0]) as f:
        schema = json.load(f)
    validator = jsonschema.Draft4Validator(schema)
    failed = False
    for name in args[1:]:
        with open(name) as f:
            log = json.load(f)
        errors = ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message)
                  for e in validator.iter_errors(log)]
        errors += uri_errors(log)
        if github:
            errors += github_errors(log)
        if relative:
            errors += relative_errors(log)
        for l in listing:
            errors += rule_errors(log, l)
        for e in errors:
            sys.stderr.write("%s: %s\n" % (name, e))
        failed = failed or bool(errors)
        print("%s: %s" % ("valid" if not errors else "INVALID", name.rsplit("/", 1)[-1]))
        describe(log)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
