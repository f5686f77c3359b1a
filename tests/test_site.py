"""The generated site: a page for every section and chapter, working links, byte-identical output,
and a build that stops with one sentence on any dangling reference.

The real site is built once (with `mkdocs build --strict`) and shared; the other builds swap in
fixture data with monkeypatch and, except one, skip MkDocs to keep the run short.
"""

from __future__ import annotations

import copy
import json
import posixpath
import re
import shutil
from pathlib import Path

import pytest

from rules import registry, spec
from rules40k import annotations, coverage
from rules40k_site import code_pages, generate

DOCUMENT = "core"
CODE_LINK = re.compile(r'href="([^"#]*/code/[^"#]*)#(__span-0-(\d+))"')


def chapter_numbers() -> list[str]:
    return [str(spec.load_yaml(path)["number"]) for path in spec.chapter_files(DOCUMENT)]


def html_of(site: Path, url: str) -> str:
    return (site / url).read_text(encoding="utf-8")


def area(url: str) -> str:
    """A Core Rules page's URL: the ruleset's area, then the reference's HTML file."""
    return f"{DOCUMENT}/{url}.html"


def section_md(build: Path, ref: str) -> str:
    return (build / "docs" / DOCUMENT / f"{ref}.md").read_text(encoding="utf-8")


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------------------
# The real site


def test_every_section_and_appendix_entry_has_a_page(built):
    site = built / "site"
    for ref in spec.sections(DOCUMENT):
        assert (built / "docs" / DOCUMENT / f"{ref}.md").is_file(), ref
        assert (site / DOCUMENT / f"{ref}.html").is_file(), ref


def test_every_chapter_has_a_page(built):
    for number in chapter_numbers():
        assert (built / "docs" / DOCUMENT / number / "index.md").is_file(), number
        assert (built / "site" / DOCUMENT / number / "index.html").is_file(), number


def test_reference_pages_exist(built):
    for name in ("index", "ledger", "results", "interpretations", "findings", "source"):
        assert (built / "docs" / DOCUMENT / f"{name}.md").is_file()
    assert (built / "docs" / "index.md").is_file()
    assert (built / "site" / "index.html").is_file()
    assert (built / "site" / "search" / "search_index.json").is_file()


def test_index_json_lists_every_page(built):
    index = json.loads((built / "docs" / "index.json").read_text(encoding="utf-8"))
    assert index["rulesets"] == list(spec.rulesets())
    by_ref = {page["ref"]: page for page in index["pages"] if page["ref"] is not None and page["ruleset"] == DOCUMENT}
    assert set(spec.sections(DOCUMENT)) | set(chapter_numbers()) == set(by_ref)
    rows = {row["ref"]: row for row in coverage.ledger(DOCUMENT)}
    for ref, page in by_ref.items():
        assert {"ref", "title", "status", "url"} <= set(page)
        assert (built / "site" / page["url"]).is_file(), page
        if ref in rows:
            assert page["status"] == rows[ref]["status"]
    text = (built / "docs" / "index.json").read_text(encoding="utf-8")
    assert text == json.dumps(index, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_status_comes_from_the_ledger(built):
    home = (built / "docs" / DOCUMENT / "index.md").read_text(encoding="utf-8")
    summary = coverage.summary(coverage.ledger(DOCUMENT))
    assert f"| **total** | **{summary['total']}** |" in home
    for row in coverage.ledger(DOCUMENT):
        assert f'status-{row["status"]}">{row["status"]}</span>' in section_md(built, row["ref"]), row["ref"]


def test_citations_in_the_text_are_links(built):
    site = built / "site"
    assert "[03.03](03.03.md)" in section_md(built, "03.01")
    assert 'href="03.03.html"' in html_of(site, area("03.01"))
    assert "[06.03](06.03.md)" in section_md(built, "09.07")
    assert 'href="06.03.html"' in html_of(site, area("09.07"))
    # A chapter citation: "See Attached Units (19)."
    assert "[19](19/index.md)" in section_md(built, "24.22")
    assert 'href="19/index.html"' in html_of(site, area("24.22"))


def test_every_cited_reference_is_linked(built):
    for ref, section in spec.sections(DOCUMENT).items():
        page = section_md(built, ref)
        for cited in section["cites"]:
            assert re.search(rf"\]\((\.\./)*{re.escape(cited)}(\.md|/index\.md)\)", page), (ref, cited)


def test_see_also_and_backlinks(built):
    page = section_md(built, "03.01")
    assert "[Frame](17.02.md) (17.02)" in page
    assert "Random Movement: *app-only text not in the document*" in page
    assert "[03.01 Moving Units](03.01.md) cites it" in section_md(built, "03.03")
    assert "[03.01 Moving Units](03.01.md) lists it under see also" in section_md(built, "17.02")


def test_other_printings_are_shown(built):
    for ref, section in spec.sections(DOCUMENT).items():
        for printing in section.get("other_printings") or []:
            assert f"Also printed at line {printing['line']}" in section_md(built, ref)


def test_rule_functions_link_to_their_line_on_the_code_page(built):
    site = built / "site"
    rules = registry.load(DOCUMENT)
    linked = 0
    for ref in spec.sections(DOCUMENT):
        html = html_of(site, area(ref))
        for function in rules.get(ref, []):
            assert function.qualname in html
        for href, anchor, line in CODE_LINK.findall(html):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(area(ref)), href))
            code = html_of(site, target)
            assert f'id="{anchor}"' in code, (ref, href, anchor)
            linked += 1
        for function in rules.get(ref, []):  # each rule function links to the line it is defined on
            target = code_pages.code_page_path(function.file)
            if target is not None:
                href = posixpath.relpath(generate.url_of(target), posixpath.dirname(area(ref)))
                assert f'href="{href}#__span-0-{function.line}"' in html, (ref, function.qualname)
    assert linked >= sum(1 for fs in rules.values() for f in fs if code_pages.code_page_path(f.file))


def test_code_pages_show_whole_modules(built):
    for file in sorted({f.file for fs in registry.load(DOCUMENT).values() for f in fs}):
        page = (built / "docs" / "code" / (file[:-3] + ".md")).read_text(encoding="utf-8")
        assert (generate.REPO_ROOT / file).read_text(encoding="utf-8").rstrip("\n") in page


def test_restorations_are_marked_with_their_evidence(built):
    site = built / "site"
    for entry in annotations.restorations(DOCUMENT):
        label = generate.footnote_label(entry["id"])
        assert f"[^{label}]" in section_md(built, entry["ref"])
        html = html_of(site, area(entry["ref"]))
        assert f'id="fn:{label}"' in html and 'class="restored"' in html
    # The stored text itself is untouched.
    for entry in annotations.restorations(DOCUMENT):
        assert entry["find"] in spec.sections(DOCUMENT)[entry["ref"]]["text"].split("\n")


def test_home_lists_every_ruleset_with_computed_counts(built):
    home = (built / "docs" / "index.md").read_text(encoding="utf-8")
    for name in spec.rulesets():
        summary = coverage.summary(coverage.ledger(name))
        row = next(line for line in home.splitlines() if f" `{name}` |" in line)
        assert f"]({name}/index.md)" in row
        assert f"| {summary['encoded']} | {summary['inert']} | {summary['deferred']} | {summary['missing']} | " \
               f"{summary['total']} |" in row, row
    assert (built / "site" / "missionpack" / "secondary" / "linebreaker.html").is_file()


def _visible(markdown: str) -> str:
    """Markdown as its words read: link targets and titles (glossary links), bold and underline tags dropped."""
    markdown = re.sub(r'\[((?:\\.|[^\]\\])*)\]\([^)\s]*(?: "[^"]*")?\)(?:\{:[^}]*\})?', r"\1", markdown)
    return re.sub(r"</?(?:strong|u)>", "", markdown)


def test_every_mission_pack_entry_has_a_page_with_its_text(built):
    for ruleset in ("missionpack", "ninth"):
        for ref, section in spec.sections(ruleset).items():
            page = _visible((built / "docs" / ruleset / f"{ref}.md").read_text(encoding="utf-8"))
            first = next(line for line in section["text"].split("\n") if line.strip())
            assert generate.escape(first.split(" | ")[0][:40])[:30] in page, (ruleset, ref)
            assert (built / "site" / ruleset / f"{ref}.html").is_file(), (ruleset, ref)


def test_cross_ruleset_citations_are_links(built):
    """A mission rule that leans on the reprinted basic rules links to that ruleset's page."""
    page = (built / "docs" / "missionpack" / "controlling-terrain-features.md").read_text(encoding="utf-8")
    assert "](../ninth/objective-markers.md)" in page
    html = html_of(built / "site", "missionpack/controlling-terrain-features.html")
    assert 'href="../ninth/objective-markers.html"' in html
    assert "](../../../ninth/overwatch.md)" in (built / "docs" / "missionpack" / "terrain" / "trait" /
                                              "defensible.md").read_text(encoding="utf-8")


def test_interpretations_and_results_appear_on_their_pages(built):
    interpretations = (built / "docs" / DOCUMENT / "interpretations.md").read_text(encoding="utf-8")
    for entry in annotations.interpretations(DOCUMENT):
        assert f"## {generate.escape(entry['id'])}" in interpretations
        for ref in entry["refs"]:
            if ref in spec.sections(DOCUMENT):
                assert f"Interpretation {entry['id']}" in section_md(built, ref)
    results = json.loads((built / "results.json").read_text(encoding="utf-8"))
    overview = (built / "docs" / DOCUMENT / "results.md").read_text(encoding="utf-8")
    for check in [c for c in results["checks"] if c["ruleset"] == DOCUMENT]:
        assert generate.code_span(check["id"]) in overview
        for ref in check["refs"]:
            assert check["id"].removeprefix("example:") in section_md(built, ref), (check["id"], ref)


def test_docs_are_byte_identical_on_rerun(built, tmp_path):
    again = tmp_path / "again"
    again.mkdir()
    shutil.copy(built / "results.json", again / "results.json")
    shutil.copytree(built / "reviews", again / "reviews")  # the reviews `rules40k site` staged beside the results
    generate.build(again, run_mkdocs=False)
    first, second = tree(built / "docs"), tree(again / "docs")
    assert sorted(first) == sorted(second)
    assert [path for path in first if first[path] != second[path]] == []
    # Re-running into the same folder replaces the docs without leftovers.
    generate.build(again, run_mkdocs=False)
    assert tree(again / "docs") == second
    assert not list(again.glob(".docs-*"))


def test_readable_titles_keep_ability_names():
    assert generate.readable_title("[ANTI]") == "[ANTI]"
    assert generate.readable_title("[DEVASTATING WOUNDS]") == "[DEVASTATING WOUNDS]"
    assert generate.readable_title("BATTLE-SHOCK ROLLS") == "Battle-shock Rolls"
    assert generate.readable_title("ELIGIBLE TO FIGHT, BUT UNABLE TO FIGHT") == "Eligible to Fight, but Unable to Fight"
    assert generate.readable_title("GAIN CORE CP") == "Gain Core CP"
    faq = "FAQ: Can a unit embark within a TRANSPORT after making a scout move?"
    assert generate.readable_title(faq) == faq


def test_text_is_escaped_but_structure_kept():
    book = generate.load(DOCUMENT, Path("/nonexistent"))
    page = generate.Page(book, "core/05.02.md", "test")
    markdown = page.text("Roll a D6 *twice* (06.03) [ANTI]\n\n- one\n- two\n\n1. First step\n\nRANGE | A\nx | y")
    assert r"\*twice\*" in markdown and r"\[ANTI\]" in markdown
    assert "([06.03](06.03.md))" in markdown
    assert "- one\n- two" in markdown
    assert r"1\. First step" in markdown
    assert "| **RANGE** | **A** |" in markdown and "| x | y |" in markdown


# ---------------------------------------------------------------------------
# Dangling references and bad annotations stop the build


def _sections_with(change):
    original = spec.sections

    def patched(document: str = DOCUMENT, root: Path = spec.SPEC_ROOT) -> dict[str, dict]:
        sections = copy.deepcopy(original(document, root))
        change(sections)
        return sections

    return patched


def _restoration(ref: str, find: str) -> dict:
    return {"id": "test-restoration", "ref": ref, "find": find, "restore": find + "!", "value": 1,
            "evidence": [{"document": "x.txt", "line": 1, "quote": "q"}], "reasoning": "test"}


def _patch_sections(change):
    return lambda mp: mp.setattr(spec, "sections", _sections_with(change))


def _patch_annotation(name: str, entries: list[dict]):
    return lambda mp: mp.setattr(annotations, name, lambda document=DOCUMENT: copy.deepcopy(entries))


_INTERPRETATION = {"id": "test-reading", "refs": ["03.01", "42.42"], "question": "?", "chosen": "a",
                   "readings": [{"id": "a", "text": "a"}], "evidence": [], "consequence": ""}
_EXAMPLE = {"id": "test-example", "ref": "12.99", "name": "n", "source": {"kind": "text"}, "call": "x.y",
            "args": {}, "expect": 1, "file": "spec/core/annotations/examples/test.yaml"}

# case -> (patch, words the error message must contain)
DANGLING = {
    "cites": (_patch_sections(lambda s: s["03.01"]["cites"].append("99.99")), ["03.01", "99.99"]),
    "chapter-cite": (_patch_sections(lambda s: s["03.01"]["cites"].append("77")), ["03.01", "77"]),
    "see-also": (_patch_sections(lambda s: s["03.01"]["see_also"].append({"label": "Nowhere",
                                                                          "ref": "appendix/nowhere"})),
                 ["03.01", "appendix/nowhere"]),
    "text": (_patch_sections(lambda s: s["03.02"].update(text=s["03.02"]["text"] + "\n\nSee elsewhere (98.76).")),
             ["03.02", "98.76"]),
    "restoration": (_patch_annotation("restorations", [_restoration("99.99", "x")]), ["test-restoration", "99.99"]),
    "restoration-find": (_patch_annotation("restorations", [_restoration("05.01", "no such line")]),
                         ["test-restoration", "05.01", "no such line"]),
    "interpretation": (_patch_annotation("interpretations", [_INTERPRETATION]), ["test-reading", "42.42"]),
    "example": (_patch_annotation("examples", [_EXAMPLE]), ["test-example", "12.99"]),
}


@pytest.mark.parametrize("case", sorted(DANGLING))
def test_dangling_reference_fails_the_build_without_partial_output(case, tmp_path, monkeypatch):
    build = tmp_path / "build"
    (build / "docs").mkdir(parents=True)
    (build / "docs" / "stale.md").write_text("# From an earlier build\n", encoding="utf-8")
    patch, words = DANGLING[case]
    patch(monkeypatch)
    with pytest.raises(generate.SiteError) as error:
        generate.build(build, rulesets=[DOCUMENT])
    message = str(error.value)
    for word in words:
        assert word in message, message
    assert "\n" not in message
    assert [p.name for p in build.iterdir()] == ["docs"]  # the earlier pages kept, nothing else left behind
    assert [p.name for p in (build / "docs").iterdir()] == ["stale.md"]


def test_dangling_check_reference_in_results_fails(tmp_path):
    build = tmp_path / "build"
    build.mkdir()
    results = {"rulesets": [DOCUMENT], "summary": {"passed": 1},
               "checks": [{"id": "table:ghost", "kind": "table", "refs": ["88.88"], "name": "n", "status": "passed",
                           "detail": ""}]}
    (build / "results.json").write_text(json.dumps(results), encoding="utf-8")
    with pytest.raises(generate.SiteError, match=r"table:ghost.*88\.88"):
        generate.build(build, rulesets=[DOCUMENT], run_mkdocs=False)
    assert [p.name for p in build.iterdir()] == ["results.json"]


def test_mkdocs_warnings_fail_the_build(tmp_path, monkeypatch):
    """A page MkDocs --strict rejects (here a broken link) becomes a SiteError quoting the warning."""
    monkeypatch.setattr(generate, "render", lambda books, reviews, plots, code_files: {"index.md": "# Home\n\n[gone](gone.md)\n"})
    monkeypatch.setattr(generate, "nav", lambda books, code_files, reviews: [{"Home": "index.md"}])
    with pytest.raises(generate.SiteError, match=r"mkdocs build --strict failed.*gone\.md"):
        generate.build(tmp_path / "build", rulesets=[DOCUMENT])


def test_derived_config_inherits_the_repository_config(built):
    config = (built / "mkdocs.yml").read_text(encoding="utf-8")
    inherit = re.search(r"^INHERIT: (.+)$", config, re.MULTILINE).group(1)
    assert (built / inherit).resolve() == (generate.REPO_ROOT / "mkdocs.yml").resolve()
    assert "docs_dir: docs" in config and "site_dir: site" in config


# ---------------------------------------------------------------------------
# Empty and populated annotation data


def test_builds_with_no_functions_annotations_or_results(tmp_path, monkeypatch):
    monkeypatch.setattr(registry, "load", lambda document=DOCUMENT: {})
    monkeypatch.setattr(registry, "functions_for", lambda ref, document=DOCUMENT: [])
    for name in ("restorations", "interpretations", "findings", "examples"):
        monkeypatch.setattr(annotations, name, lambda document=DOCUMENT: [])
    build = tmp_path / "build"
    docs = generate.build(build, rulesets=[DOCUMENT], run_mkdocs=False)
    assert docs == build / "docs"
    assert "not run" in (docs / DOCUMENT / "03.01.md").read_text(encoding="utf-8").lower()
    assert "No interpretations are recorded yet." in (docs / DOCUMENT / "interpretations.md").read_text(encoding="utf-8")
    assert "No findings are recorded yet." in (docs / DOCUMENT / "findings.md").read_text(encoding="utf-8")
    assert "were not run" in (docs / DOCUMENT / "results.md").read_text(encoding="utf-8")
    assert not (docs / "code").exists()
    assert "- Code:" not in (build / "mkdocs.yml").read_text(encoding="utf-8")


def test_builds_with_failures_and_chapter_interpretations(tmp_path, monkeypatch):
    """Populated fixtures, through MkDocs --strict: failed and erroring checks, a chapter-level reading."""
    interpretation = {
        "id": "test-reading", "refs": ["05", "05.02"], "question": "Does *this* apply (06.03)?",
        "readings": [{"id": "yes", "text": "It does."}, {"id": "no", "text": "It does not."}], "chosen": "no",
        "evidence": [{"document": "000_5a110eecb9ce1e5f.txt", "line": 1, "quote": "a | b"}],
        "consequence": "The code says no.",
    }
    example = {"id": "test-example", "ref": "05.02", "name": "A wound roll example", "call": "rules.dice.nothing",
               "source": {"kind": "figure", "title": "WOUND ROLL", "line": 700}, "args": {"roll": 4},
               "expect": {"wounds": True}, "file": "spec/core/annotations/examples/test.yaml"}
    finding = {"id": "test-finding", "refs": ["05.02"], "kind": "unreachable", "summary": "A row never applies.",
               "evidence": [{"document": "000_5a110eecb9ce1e5f.txt", "line": 1, "quote": "a | b"}],
               "check": "proof:test-proof", "interpretation": "test-reading"}
    monkeypatch.setattr(annotations, "interpretations", lambda document=DOCUMENT: [interpretation])
    monkeypatch.setattr(annotations, "findings", lambda document=DOCUMENT: [finding])
    monkeypatch.setattr(annotations, "examples", lambda document=DOCUMENT: [example])
    build = tmp_path / "build"
    build.mkdir()
    results = {"rulesets": [DOCUMENT], "summary": {"error": 1, "failed": 1},
               "checks": [
                   {"id": "example:test-example", "kind": "example", "refs": ["05.02"], "name": example["name"],
                    "status": "failed", "detail": "expected {'wounds': True}, got {'wounds': False}",
                    "expected": {"wounds": True}, "actual": {"wounds": False}},
                   {"id": "property:test-property", "kind": "property", "refs": ["05.02", "appendix/destroyed"],
                    "name": "Wounds are monotone in Strength", "status": "error", "detail": "ValueError: boom | bang"},
                   {"id": "proof:test-proof", "kind": "proof", "refs": ["05.02"], "name": "Row HALF applies",
                    "status": "finding", "detail": "counterexample: strength=1, toughness=2",
                    "counterexample": {"strength": 1, "toughness": 2}},
               ]}
    (build / "results.json").write_text(json.dumps(results), encoding="utf-8")
    site = generate.build(build, rulesets=[DOCUMENT])
    page = section_md(build, "05.02")
    assert "Interpretation test-reading" in page and "**Reading no (followed by the code):**" in page
    assert 'status-failed">failed</span> **A wound roll example**' in page
    assert '`{"wounds": false}`' in page
    assert "property check: property:test-property" in page
    assert "Finding test-finding" in page and "interpretations.md#test-reading" in page
    findings = (build / "docs" / DOCUMENT / "findings.md").read_text(encoding="utf-8")
    assert "## test-finding" in findings and "strength" in findings
    assert "Interpretation test-reading" in (build / "docs" / DOCUMENT / "05" / "index.md").read_text(encoding="utf-8")
    assert "property:test-property" in (build / "docs" / DOCUMENT / "appendix" / "destroyed.md").read_text(encoding="utf-8")
    overview = (build / "docs" / DOCUMENT / "results.md").read_text(encoding="utf-8")
    assert "## Failures" in overview and "boom \\| bang" in overview
    assert (site / DOCUMENT / "05.02.html").is_file()


def test_one_ruleset_area_alone(tmp_path):
    """`rules40k site --ruleset missionpack`: one area; citations of a ruleset left out stay plain text."""
    docs = generate.build(tmp_path / "build", rulesets=["missionpack"], run_mkdocs=False)
    assert (docs / "missionpack" / "index.md").is_file() and not (docs / "core").exists()
    page = (docs / "missionpack" / "controlling-terrain-features.md").read_text(encoding="utf-8")
    assert "(pg 96)" in page and "ninth/objective-markers" not in page


def test_sections_show_their_verification_strength_and_the_survivors_page_their_diffs(tmp_path, monkeypatch):
    """From a mutation report: 14.02's strength and a link to its survivors, which show their diff."""
    from rules40k import mutate

    module = "rules.core.objectives"
    survivor = next(m for m in mutate.mutants(module) if m.change == "level_2 > level_1 -> level_2 >= level_1")
    killed = next(m for m in mutate.mutants(module) if m.function == "level_of_control")
    rows = [{**m.__dict__, "refs": ["14.02"], "killed": k, "status": "killed" if k else "survived",
             "diff": mutate.diff(m)} for m, k in ((survivor, False), (killed, True))]
    functions = {f"{module}.{name}": {"module": module, "name": name, "line": 1, "refs": ["14.02"], "called": True,
                                      "killed": 1, "survived": 0} for name in ("level_of_control",)}
    report = {**mutate._report({module: {"sha256": mutate._digest(module), "complete": True}}, rows, functions),
              "stale": []}
    monkeypatch.setattr(mutate, "measured", lambda: report)
    build = tmp_path / "build"
    generate.build(build, rulesets=[DOCUMENT], run_mkdocs=False)
    page = section_md(build, "14.02")
    assert "Verification strength: 50% (1 of 2 mutants killed), [see the surviving mutants](mutants.md#m-14-02)." in page
    unmeasured = section_md(build, "05.02")
    assert "Verification strength: not measured on this code" in unmeasured
    mutants = (build / "docs" / DOCUMENT / "mutants.md").read_text(encoding="utf-8")
    assert "{: #m-14-02 }" in mutants
    assert "-        Row(\"player 2 has the highest level of control\"" not in mutants  # only the changed line
    assert "+" in mutants and "level_2 >= level_1" in mutants and "```diff" in mutants
    ledger = (build / "docs" / DOCUMENT / "ledger.md").read_text(encoding="utf-8")
    assert "| Strength |" in ledger


def test_sitemap_lists_every_page_at_the_site_url_dated_by_the_last_commit(built):
    """The sitemap names every page (all but the 404 page) at site_url, and its date is the last commit's, not
    the day of the build, so rebuilds of the same sources are byte-identical on any day."""
    import datetime
    import subprocess
    import xml.etree.ElementTree as ElementTree

    site = built / "site"
    root = ElementTree.parse(site / "sitemap.xml").getroot()
    space = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    urls = [u.findtext("s:loc", namespaces=space) for u in root.findall("s:url", space)]
    base = "http://127.0.0.1:8000/"
    assert all(u.startswith(base) for u in urls)
    pages = {p.relative_to(site).as_posix() for p in site.rglob("*.html")} - {"404.html"}
    assert {u[len(base):] for u in urls} == pages
    stamp = subprocess.run(["git", "log", "-1", "--format=%ct"], capture_output=True, text=True,
                           cwd=Path(generate.__file__).resolve().parent.parent).stdout.strip()
    day = datetime.datetime.fromtimestamp(int(stamp), datetime.timezone.utc).date().isoformat() if stamp else None
    dates = {u.findtext("s:lastmod", namespaces=space) for u in root.findall("s:url", space)}
    assert dates == {day or "1970-01-01"}
