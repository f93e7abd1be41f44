"""Checks META.json against PGXN's META.json spec 1.0.0 (https://pgxn.org/meta/spec.txt),
as written there: the required keys and their types, semantic versions, the license
strings the spec lists, each provided extension's file and version, and that the
versions agree with Cargo.toml and the control file.

    python3 tests/package/meta.py
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+)?$")
LICENSES = {
    "agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd", "freebsd",
    "gfdl_1_2", "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1", "lgpl_3_0", "mit",
    "mozilla_1_0", "mozilla_1_1", "openssl", "perl_5", "postgresql", "qpl_1_0", "ssleay",
    "sun", "zlib", "open_source", "restricted", "unrestricted", "unknown",
}
PHASES = {"configure", "build", "test", "runtime", "develop"}
RELATIONS = {"requires", "recommends", "suggests", "conflicts"}
STATUS = {"stable", "testing", "unstable"}


def main():
    meta = json.load(open(os.path.join(ROOT, "META.json")))
    errors = []

    def need(key, kind):
        if key not in meta:
            errors.append(f"missing required key {key!r}")
        elif not isinstance(meta[key], kind):
            errors.append(f"{key!r} is not a {kind.__name__}")

    for key, kind in (("name", str), ("abstract", str), ("version", str), ("provides", dict),
                      ("meta-spec", dict)):
        need(key, kind)
    if not isinstance(meta.get("maintainer"), (str, list)):
        errors.append("'maintainer' must be a string or a list of strings")
    lic = meta.get("license")
    names = [lic] if isinstance(lic, str) else list(lic) if isinstance(lic, list) else list((lic or {}).keys())
    if not names or any(n not in LICENSES for n in names) and not isinstance(lic, dict):
        errors.append(f"'license' {lic!r} is not among the spec's license strings")
    if not SEMVER.match(meta.get("version", "")):
        errors.append(f"'version' {meta.get('version')!r} is not a semantic version")
    if meta.get("meta-spec", {}).get("version") != "1.0.0":
        errors.append("'meta-spec' version must be 1.0.0")
    if re.search(r"[/\\\s]", meta.get("name", "")) or len(meta.get("name", "")) < 2:
        errors.append("'name' must be at least two characters without slashes or spaces")
    for ext, p in meta.get("provides", {}).items():
        if not isinstance(p, dict) or "file" not in p or "version" not in p:
            errors.append(f"provides {ext!r} needs 'file' and 'version'")
            continue
        if not SEMVER.match(p["version"]):
            errors.append(f"provides {ext!r}: version {p['version']!r} is not semantic")
        if not os.path.exists(os.path.join(ROOT, p["file"])):
            errors.append(f"provides {ext!r}: file {p['file']!r} does not exist")
        if "docfile" in p and not os.path.exists(os.path.join(ROOT, p["docfile"])):
            errors.append(f"provides {ext!r}: docfile {p['docfile']!r} does not exist")
    for phase, rels in meta.get("prereqs", {}).items():
        if phase not in PHASES:
            errors.append(f"prereqs phase {phase!r} is not one of {sorted(PHASES)}")
        for rel, reqs in rels.items():
            if rel not in RELATIONS:
                errors.append(f"prereqs relation {rel!r} is not one of {sorted(RELATIONS)}")
            for name, version in reqs.items():
                if not (SEMVER.match(str(version)) or version == 0):
                    errors.append(f"prereqs {name!r}: {version!r} is not a version")
    if meta.get("release_status", "stable") not in STATUS:
        errors.append(f"'release_status' must be one of {sorted(STATUS)}")
    if "tags" in meta and not all(isinstance(t, str) and 0 < len(t) <= 256 for t in meta["tags"]):
        errors.append("'tags' must be non-empty strings")

    cargo = re.search(r'^version = "(.*)"', open(os.path.join(ROOT, "Cargo.toml")).read(), re.M).group(1)
    if meta.get("version") != cargo or meta["provides"]["sroar_pg"]["version"] != cargo:
        errors.append(f"META.json versions differ from Cargo.toml's {cargo}")
    for e in errors:
        print(f"META.json: {e}", file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"META.json: valid against PGXN's spec 1.0.0 (sroar_pg {cargo})")


main()
