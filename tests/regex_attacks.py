"""Each regex of the package and the inputs that would make it slow, for test_regex_linear.py.

An attack is a long run of what the pattern repeats (`pump`) after what leads into the repeat
(`prefix`) and before what makes the match fail at the last moment (`suffix`): the shape that
makes a backtracking engine retry each split of the run. Runs of a single character from every
repeated class are tried on top of these by the test itself. Attacks were found by reading each
pattern and with recheck 4.5 (npm `recheck`, run once over every pattern; possessive quantifiers,
which JavaScript lacks, given to it as greedy ones: more backtracking, never less); the comment
beside an entry says what it guards where that is not plain. A pattern the package applies only
anchored (`match`, `fullmatch`) is guarded as it is applied.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from anchors.extract.claims import _link_by_number
from tests.regexguard import Attack, Guard, Use

A = Attack
S, M, F = Use.SCAN, Use.MATCH, Use.FULLMATCH


def g(*attacks: Attack, use: Use = S) -> Guard:
    return Guard(attacks, use)


#: by `module.NAME` (one of the names a pattern is held under)
GUARDS: dict[str, Guard] = {
    # -- archive: Save Page Now's and the Wayback Machine's answers
    "anchors.archive.savepagenow._JOB": g(A("", "a-"), A("", "_", "!"), use=F),
    "anchors.archive.savepagenow._STAMP": g(A("", "20"), A("19", "1", "x"), use=F),
    "anchors.archive.savepagenow._CODE": g(A("error:", "a-"), A("", "error:"), use=F),
    "anchors.archive.wayback._SNAP_PATH": g(A("/web/20240101000000/", "a/", "\nx"), use=M),
    # -- check: pages, answers, fragments
    "anchors.net.fragments._ROUTE_RE": g(A("", "/"), A("", "narrow/"), use=M),
    "anchors.net.fragments._COMMENT_RE": g(A("issuecomment-", "1", "x"), use=M),
    "anchors.net.fragments._REVIEW_RE": g(A("discussion_r", "1", "x"), use=M),
    "anchors.net.fragments._LINES_RE": g(A("L1C", "1", "x"), A("L1-L1C", "1", "x"), use=M),
    "anchors.net.fragments._GITHUB_PAGE_RE": g(
        A("/", "a", "x"), A("/a/", "b"), A("/a/b/issues/", "x/", "\nx"), use=M
    ),
    "anchors.net.htmlplaces._SLUG_DROP_RE": g(A("", "!"), A("", "a- ")),
    # the first 64 bytes of a cache file that `json` refused: is it a damaged one of anchors'?
    "anchors.net.cache._MARKED": g(A("", " ", "x"), A("{", "\n", "x"), A('{"anchors"', " "), use=M),
    # a GitHub `Link` header (read up to 8 KiB): openings with no `>`, parameters with no rel
    "anchors.resolve.github_pages._LINK_RE": g(A("", "<"), A("<", "a"), A("<a>", "; ")),
    "anchors.resolve.github_pages._REL_RE": g(A("", "rel"), A("rel", " ", "x"), A("rel=", "a")),
    "anchors.resolve.arxiv._WITHDRAWN_RE": g(A("", "withdra"), A("", "withdrawn ")),
    # the head of an arXiv answer: many `<feed` openings with no `>`
    "anchors.resolve.arxiv_client._FEED_TAG": g(A("", "<feed "), A("<feed", " a", "")),
    "anchors.resolve.arxiv_client._ATOM": g(A("", "xmlns="), A("", " xmlns='")),
    "anchors.resolve.arxiv_client._COUNTS": g(A("", "<opensearch:totalResults")),
    # a page's words: a run of digits with no dot, letters with no dot
    "anchors.check.words._TOKEN_RE": g(A("", "0", "x"), A("a", "0"), A("", "0.", "x")),
    "anchors.check.words._PART_RE": g(A("", "0", "x"), A("", "A", "a"), A("", "0.", ".")),
    "anchors.config.settings._KEY": g(A("", "a", " "), use=F),
    # -- the living document
    "anchors.document.reader._ATX_OPEN_RE": g(A("#", " "), A("", "#"), A("   #", "\t", "x"), use=M),
    "anchors.document.reader._SETEXT_RE": g(A("", "=", "x"), A("=", " ", "x"), use=M),
    "anchors.document.reader._NOT_SETEXT_RE": g(A("", " "), A("", "1", "."), use=M),
    "anchors.document.reader._DOTTED_RE": g(A("", "1.", "x"), A("1", ".1", "x"), use=M),
    # -- briefings
    # a line's sources and its sentences, for figures attributed by line or by block
    "anchors.extract.attributed._SOURCE_LINE_RE": g(
        A("", " ", "x"), A("-", "\t", "x"), A("- **Sources**", " ", "x"), use=M
    ),
    "anchors.extract.attributed._SENTENCE_END_RE": g(A("", "."), A("", ". "), A("", "。")),
    "anchors.extract.attributed._MAY_HOLD_RE": g(A("", "a"), A("", "tim"), A("", "fol")),
    "anchors.extract.attributed._MENTION_RE": g(
        A("", "#"), A("", "pr   #   "), A("issue", " ", "1")
    ),
    "anchors.extract.citations._LABEL_RE": g(A("", " ", "x"), A("- ", "a"), use=M),
    "anchors.extract.citations._LINK_LABEL_RE": g(A("", "ur"), A("", "lin")),
    "anchors.extract.citations._ARROW_SECTION_RE": g(A("→", " ", "x"), A("", "→ ")),
    "anchors.extract.citations._LIST_RE": g(A("", " ", "x"), A("-", " ", ""), use=M),
    "anchors.extract.citations._FILE_DATE_RE": g(A("", "2024-01-0"), A("", "1")),
    "anchors.extract.scan.DIGIT_RE": g(A("", "a")),
    "anchors.extract.citations._TITLE_DATE_RE": g(A("(", " ", "x"), A("", "( 2024-01-01 ")),
    # `PR` + whitespace, `#`, whitespace: three runs the old pattern split every way
    "anchors.extract.claims._MENTION_RE": g(
        A("pr", " ", "x"), A("issue", "\t", "#x"), A("", "issues/"), A("#", "1")
    ),
    "anchors.extract.claims._THIS_RE": g(A("该", " ", "x"), A("this", " ", "x"), A("the", " ")),
    "anchors.extract.claims._EMPTY_BRACKETS_RE": g(A("(", "\t", "x"), A("[", " ", ",x")),
    "anchors.extract.docrefs._REF_RE": g(
        A("", "a.md", "x"), A("a.md", " ", "x"), A("a.md§1", " ", "x"), A("a.md§", "1.", "x")
    ),
    "anchors.extract.layout._IGNORE_RE": g(A("<!--", " ", "x"), A("", "<!--anchors:ignore")),
    # many openings with no `>`; one opening, then spaces before no `-->`
    "anchors.extract.layout._IGNORE_LIST_RE": g(
        A("", "<!--anchors:ignore x"), A("<!--anchors:ignore x", " ", "x"), A("", "<!-- anchors :")
    ),
    "anchors.extract.layout._FENCE_RE": g(A("```", " ", "!"), A("", "`"), use=M),
    "anchors.extract.layout._BIB_ENTRY_RE": g(A("@A{", "\t", "{,"), A(" @a", "a", "x"), use=M),
    "anchors.extract.layout._TITLE_COLUMN_RE": g(A("", "titl")),
    "anchors.extract.phrases._STRONG[0][0]": g(
        A("仍", " ", "x"), A("still", " ", "x"), A("is", " ", "x"), A("not", " ", "x")
    ),
    "anchors.extract.phrases._STRONG[1][0]": g(A("已", " ", "x"), A("has", " ", "x")),
    "anchors.extract.phrases._STRONG[2][0]": g(A("已", " ", "x"), A("status", " ", "x")),
    "anchors.extract.phrases._STRONG[3][0]": g(A("已", " ", "x"), A("closed as", " ", "x")),
    "anchors.extract.phrases._BARE": g(A("", "open"), A("", "opened")),
    "anchors.extract.phrases._LINE_START": g(
        A("", " ", "x"), A("- ", "[a] ", "x"), A("", "\t", "-x"), use=F
    ),
    "anchors.extract.phrases._WORD_AFTER": g(A("", " ", "1"), A("", "a'", "1"), use=M),
    "anchors.extract.phrases._WORD_BEFORE": g(A("", "A", "\x00A"), A("a", " ", "x")),
    "anchors.extract.phrases._NOT_STATE": g(A("", "是否"), A("open", " ", "x"), A("is", " ")),
    # `arXiv` + whitespace around optional parts, then no date
    "anchors.extract.phrases._DATE_RE": g(
        A("arxiv", "\t", "出"),
        A("submitted", " ", "x"),
        A("2024-01-01", " ", "x"),
        A("arxiv ", "1 ", "x"),
        A("", "arxiv: "),
    ),
    "anchors.extract.phrases._VENUE_RE": g(A("ICML", " ", "x"), A("", "ICML")),
    "anchors.extract.phrases._NOT_VENUE": g(A("submitted to", " ", "x"), A("", "deadline ")),
    "anchors.extract.phrases._VERSION_RE": g(
        A("arxiv", " ", "x"), A("0000.0000", "\t", "x"), A("第", " ", "x")
    ),
    "anchors.extract.phrases._CONTINUING_RE": g(A("", "仍"), A("", "remain")),
    "anchors.extract.place._HEADING_RE": g(
        A("#", "\t", "\t0\n:"), A("", " ", "\nx"), A("增量", " ", "x"), A("Item", " ", "x"), use=M
    ),
    "anchors.extract.place._SECTION_RE": g(A("", "§1"), A("§", " ", "x")),
    "anchors.extract.place._SECTION_LINE_RE": g(A("section", " ", "x")),
    "anchors.extract.place._DATE_CLAIM_RE": g(A("01-01", " ", "x"), A("anchored", " ", "x")),
    "anchors.extract.place._NEW_RE": g(A("", "new ")),
    "anchors.extract.place._CONT_RE": g(A("", "续")),
    "anchors.extract.plaintext._IMAGE_RE": g(A("", "![]("), A("![", "a"), A("![](", "a")),
    "anchors.extract.plaintext._BACKLINK_RE": g(A("", "[\t"), A("(", " ", "x"), A("", "(")),
    "anchors.extract.plaintext._LINK_RE": g(A("", "[\x00"), A("[", "a"), A("[a](", "x")),
    "anchors.extract.plaintext._BRACKETS_RE": g(A("", "["), A("[", "a")),
    "anchors.extract.plaintext._MARKED_RE": g(A("", "a")),
    "anchors.extract.plaintext._TAG_RE": g(A("", "<"), A("<", "a")),
    "anchors.extract.plaintext._EMPHASIS_RE": g(A("", "a*"), A("", "*a")),
    "anchors.extract.plaintext._SPACE_RE": g(A("", " a")),
    # `a` + spaces + `b` (the `add` hang); many stars inside one bracket
    "anchors.extract.plaintext._GLOSS_RE": g(
        A("a", " ", "b"), A("a (", "⭐ ", "x"), A("", " ("), A("a", " ", "·b")
    ),
    "anchors.extract.plaintext._EMPTY_PAIR_RE": g(A("(", " ", "x"), A("", "( ")),
    "anchors.extract.plaintext._URL_RE": g(A("", "www."), A("", "http://")),
    "anchors.extract.plaintext._ID_RE": g(A("", "ia", "\x00"), A("a/", "b", "!"), use=F),
    "anchors.extract.scan._BARE_URL_RE": g(A("", "a"), use=M),
    "anchors.extract.scan._URL_START_RE": g(A("", "http:/")),
    "anchors.extract.scan._REF_DEF_RE": g(A("", "[\t"), A("[", "a", "]"), use=F),
    "anchors.extract.scan._ATTR_BEFORE_RE": g(A("href", " ", "x"), A("", "href= ")),
    "anchors.extract.scan._LINK_TITLE_RE": g(A("", "\t", '")x'), A(' "', "a", ""), use=M),
    "anchors.extract.scan._HTML_TEXT_RE": g(A("", "/a"), A(">", "a"), use=M),
    "anchors.extract.scan._ISSUE_AFTER_RE": g(
        A("(GitHub PR", " ", "x"), A(" (", " ", "x"), A("", " ", "("), use=M
    ),
    "anchors.extract.scan._REPO_ROOT_RE": g(A("https://github.com/", "a"), A("", "http://")),
    "anchors.extract.scan._TOKEN_RE": g(
        A("", "1", "x"),
        A("", "a", "/"),
        A("", "a-"),
        A("10.1234/", "#a"),
        A("arxiv:", "a", "x"),
        A("", "10.1234/"),
        A("", "0000.0000"),
        A("", "a/"),
        A("", "1-"),
        A("a/", "b", "#"),
    ),
    "anchors.extract.scan._TEMPLATE_RE": g(A("a://", ":0"), A("", "{a"), A("{", "a", "x")),
    "anchors.extract.scan._HOST_RE": g(A("a://", "a", "/"), A("a://[", "a"), use=M),
    "anchors.extract.scan._TICKS_RE": g(A("", "`a")),
    "anchors.extract.titling._VENUE_ONLY_RE": g(A("A", " ", "x"), A("(", " ", "A"), use=F),
    # -- figures: briefing lines, arXiv abstracts and HTML, GitHub bodies (test_figures_*.py);
    # a pattern applied at a position or in a short window is guarded as a scan of the whole text
    "anchors.figures.chinese._FIGURE_RE": g(
        A("", "七"), A("百分之", "七"), A("", "百分之"), A("七", "多", "倍"), A("", "七十倍")
    ),
    "anchors.figures.chinese._ANCHOR_RE": g(A("", "百"), A("", "倍")),
    "anchors.figures.latexml._DROPPED_RE": g(A("", " "), A("", " ,")),
    "anchors.figures.markdown._FENCE_RE": g(A("", "`", " x"), A("   ", "~", "x"), use=M),
    # a table's delimiter row, tried whole on the line under each line holding a `|` (as a
    # scan, a run of spaces would be read again from each space: recheck's ' '*n + '\x00-')
    "anchors.figures.markdown._DELIMITER_RE": g(
        A("", "|-", "x"), A("|", " ", "x"), A("", "-", "|x"), A("", "| :-: ", "x"), use=F
    ),
    "anchors.figures.markdown._BLOCK_START_RE": g(
        A("", " ", "- "), A("", "- "), A("", "1", ". "), use=M
    ),
    "anchors.figures.markdown._MARKER_RE": g(
        A("", "> "),
        A("", "- "),
        A("", ">", "x"),
        A("-", " ", "x"),
        A("- [x]", " ", "x"),
        A("1.", " "),
        use=M,
    ),
    "anchors.figures.markdown._CELL_SEP_RE": g(A("", "\\|"), A("", "|"), A("", "\\")),
    "anchors.figures.markdown._IMAGE_RE": g(
        A("", "!["), A("", "![a]("), A("![", "a"), A("![a](", "x"), A('![a](x "', "a")
    ),
    "anchors.figures.markdown._IMG_TAG_RE": g(A("", "<img "), A("<img", " "), A("", "<IMG")),
    "anchors.figures.markdown._ALT_RE": g(A("", "alt="), A("alt='", "a"), A("", "alt='")),
    "anchors.figures.markdown._LINK_RE": g(A("", "[a](x"), A("", "["), A("[", "a"), A("[a](", "x")),
    "anchors.figures.markdown._TAG_RE": g(A("", "<a"), A("<a", " "), A("", "</a-"), A("<", "a")),
    "anchors.figures.markdown._EMPHASIS_RE": g(A("", "*"), A("", "~"), A("", "`")),
    "anchors.figures.normal._MAY_CHANGE_RE": g(A("", "a"), A("", "é"), A("", "一")),
    "anchors.figures.normal._OVERRIDDEN_RE": g(A("", "a"), A("", "，")),
    "anchors.figures.normal._TEX_RE": g(
        A("", "\\"),
        A("\\", "a"),
        A("\\cite{", "a"),
        A("", "\\cite{"),
        A("1", "\\,"),
        A("", "{,"),
        A("", "-"),
        A("", "\\textbf{"),
        A("", "`"),
    ),
    "anchors.figures.normal._SCI_RE": g(A("", "1 × 10 ^ "), A("", "1×10^"), A("1", " ", "x")),
    "anchors.figures.normal._SPACES_RE": g(A("", " ", "x"), A("", " a")),
    # what joins a range's two numbers: the text between two numbers, whole
    "anchors.figures.parse._GAP_RE": g(A("", " ", "x"), A("", " -"), A("", "to"), use=F),
    "anchors.figures.parse._OPENS_RANGE_RE": g(A("", " "), A(" -", " ", "1"), use=M),
    "anchors.figures.parse._MASK_RE": g(
        A("", "1"),
        A("", "2024-01-"),
        A("", "12:"),
        A("", "1:1"),
        A("", "http://"),
        A("http://", "a", " "),
    ),
    "anchors.figures.parse._MASK_HINT_RE": g(A("", "1-"), A("", "1"), A("", "-1")),
    "anchors.figures.parse._MULTIPLE_HINT_RE": g(A("", "fol"), A("", "doub"), A("", "quadrup")),
    "anchors.figures.parse._VAGUE_EN_RE": g(
        A("", "several "), A("many", " ", "x"), A("", "an order of ")
    ),
    "anchors.figures.parse._WORD_MULTIPLE_RE": g(A("", "two"), A("", "twofoldx"), A("", "doubl")),
    "anchors.figures.parse._FROM_RE": g(A("", "from "), A("", "从"), A("from", " ", "x")),
    # a million dots are one sentence end, read once; so are a million `。`
    "anchors.figures.prose._END_RE": g(
        A("", ".", "a"),
        A("", "。", "a"),
        A("", ". "),
        A(".", ")", "x"),
        A("。", "”", "x"),
        A(".", " ", "x"),
    ),
    "anchors.figures.prose._WORD_BEFORE_RE": g(
        A("", "Fig. "), A("a.", " ", "x"), A("", "a"), A("a.", ")", " x")
    ),
    "anchors.figures.quotes._QUOTE_RE": g(
        A("", "“"), A("“", "a"), A("", '"'), A('"', "a"), A("「", "a"), A("『", "a"), A("", "“a”")
    ),
    "anchors.figures.quotes._CODE_RE": g(A("", "`"), A("`", "a"), A("", "`a")),
    "anchors.figures.reading._SENTENCE_END_RE": g(A("", "."), A("", ". "), A("", "。")),
    # digits, digit groups and decimals: a long run of each, and of each with no end
    "anchors.figures.tokens._BRIEFING_CORE_RE": g(
        A("", "1"),
        A("", "1,"),
        A("", ",111"),
        A("1", ",111", "1"),
        A("", "1.1"),
        A("1", "0", "e"),
        A("", "1e1"),
        A("", "a1"),
    ),
    "anchors.figures.tokens._SOURCE_CORE_RE": g(
        A("", "1"), A("", "1,"), A("", ",111"), A("1", ",111", "1"), A("", "1.1"), A("", "1/")
    ),
    "anchors.figures.tokens._ARXIV_RE": g(A("", "1"), A("1234.", "1"), use=F),
    "anchors.figures.tokens._NAMES_BEFORE_RE": g(
        A("", "Fig. "), A("Table", " ", "x"), A("", "v"), A("", "#"), A("", "Tab")
    ),
    "anchors.figures.tokens._BRIEFING_SEQUEL_RE": g(A("", "."), A("", "/"), use=M),
    "anchors.figures.tokens._SOURCE_SEQUEL_RE": g(A("", "."), A("", ":"), use=M),
    "anchors.figures.tokens._HARDWARE_RE": g(A("", " ", "x"), A("", "A"), A("A", "1", "x"), use=M),
    "anchors.figures.tokens._HARDWARE_BEFORE_RE": g(A("", "A100"), A("", "A"), A("A100", " ", "x")),
    "anchors.figures.tokens._MODEL_SIZE_RE": g(A("", " "), A("", "-param"), use=M),
    "anchors.figures.tokens._PLUS_MINUS_RE": g(
        A("", "±"), A("±1", ".", "x"), A(" ", " ", "±"), use=M
    ),
    "anchors.figures.tokens._CLOSES_RANGE_RE": g(A("", "1-"), A("1", " ", "-"), A("", "1 to ")),
    "anchors.figures.tokens._RATIO_RE": g(A("", "/"), use=M),
    "anchors.figures.tokens._WORD_NEXT_RE": g(A("", " "), use=M),
    "anchors.figures.tokens._MAY_FOLLOW_RE": g(A("", " ", "1"), use=M),
    "anchors.figures.units._UNIT_RE": g(
        A("", " "),
        A("", "percent"),
        A("", "tokens/"),
        A("", "tok"),
        A("", "times "),
        A("", "per"),
        use=M,
    ),
    "anchors.figures.units._SCALE_RE": g(A("", " "), A("", "万"), A("", "k"), use=M),
    "anchors.figures.units._CURRENCY_RE": g(A("", "$"), A("", "USD "), A("USD", " ", "x")),
    # matched on the 24 characters before a number, reversed
    "anchors.figures.units._HEDGE_BEFORE_REVERSED_RE": g(
        A("", " "), A("", "naht "), A("", "最"), A("", "naht"), use=M
    ),
    "anchors.figures.units._HEDGE_AFTER_RE": g(A("", " "), A("", "or "), A("or", " "), use=M),
    # -- identifiers
    "anchors.ids.arxiv._NEW_RE": g(A("0000.", "0", "x"), use=F),
    "anchors.ids.arxiv._OLD_RE": g(A("", "A", "/"), A("a/0000", "0", "x"), use=F),
    "anchors.ids.arxiv._PREFIX_RE": g(A("arxiv:", " ", "x"), use=M),
    "anchors.ids.citekeys._KEY_CHARS": g(A("", "-a")),
    "anchors.ids.doi._ARXIV_DOI_RE": g(A("10.48550/arxiv.", "a", "\nx"), use=M),
    "anchors.ids.doi._DOI_RE": g(A("10.1234", ".1", "x"), A("10.1234/", "a", " "), use=F),
    "anchors.ids.github._GITHUB_TEXT_RE": g(A("a/", "b", "!"), use=F),
    "anchors.ids.github._REPO_URL_RE": g(A("https://github.com/a/", "b", "!"), use=F),
    "anchors.ids.landing._LOGIN": g(A("", "/login"), A("", "/"), use=S),
    "anchors.ids.landing._HOME_PATH": g(A("en/", "a"), use=F),
    "anchors.ids.urls._ARCHIVE_SEG": g(A("", "a-"), use=F),
    "anchors.ids.urls._DOI_PATH": g(A("", "10."), use=M),
    "anchors.ids.urls._ARXIV_PREFIX": g(A("", "arxiv:")),
    # -- the registry
    "anchors.registry.model._ALIAS_HINT": g(A("", " &"), A("", "&")),
    "anchors.registry.sniff._REGISTRY_KEY": g(A("version:", " ", "x"), A("", "anchors: \n")),
    "anchors.registry.sniff._KEY_LINE": g(A("", "a", "!"), A("a", ".", "!"), use=M),
    "anchors.registry.sniff._HEADING": g(A("#", " "), A("", "#\n")),
    "anchors.registry.sniff._LINK": g(A("", "]")),
    # -- outputs: titles and names from the services
    "anchors.render.bib._PAGE_DASH_RE": g(A("1", " ", "x"), A("1", "-", "x")),
    "anchors.render.bib._NOT_KEY_WORD_RE": g(A("", "!_")),
    "anchors.render.bibnames._AND": g(A("", " an"), A("", "and")),
    "anchors.render.bibvalues._SPECIAL": g(A("", "-")),
    "anchors.render.bibvalues._NOT_VERBATIM": g(A("", "a")),
    "anchors.render.bibvalues._NOT_BRACE": g(A("", "a{")),
    "anchors.render.cells._UNSHOWABLE": g(A("", "a")),
    # one long word: a letter with no digit after it, a dot with no letter after it
    "anchors.render.csl._TECHNICAL": g(A("", "a", "!"), A("", "."), A("", ".a."), A("", "1.")),
    "anchors.render.csl._MARKUP": g(A("", "<i"), A("", "<")),
    "anchors.render.escape._CONTROL_RE": g(A("", "a")),
    "anchors.render.escape._MD_SPECIAL_RE": g(A("", "a")),
    "anchors.render.escape._MENTION_RE": g(A("", "@")),
    "anchors.render.escape._REFERENCE_RE": g(A("", "GH-"), A("", "#")),
    "anchors.render.escape._AUTOLINK_RE": g(A("", ":/www")),
    "anchors.render.escape._COMMAND_RE": g(A("", ":#")),
    "anchors.render.escape._DIFF_CONTROL_RE": g(A("", "a")),
    "anchors.render.json._UNSAFE_RE": g(A("", "a")),
    # -- section numbers (documents, briefings, the registry's `section:`)
    "anchors.sections._NUMBER_RE": g(
        A("§1", " ", "x"), A("§", "1.", "x"), A("§", "1 . ", "x"), use=M
    ),
    "anchors.sections._BRACKETED_RE": g(A("(", "a", ")("), use=F),
    # -- titles
    "anchors.titles._CJK_RE": g(A("", "a")),
    "anchors.titles._LATIN_RE": g(A("", " ")),
    "anchors.titles._GLOSS_SEP_RE": g(A("a", " ", "-x"), A("a", "\t", "\x00—"), A("", " |")),
    "anchors.titles._MAIN_SEP_RE": g(A("a", " ", "x"), A("a", "\t", "\x00—"), A("", " -")),
    "anchors.titles._TEX_TEXT_RE": g(A("\\text", " ", "x"), A("\\text{", "a")),
    "anchors.titles._TEX_SCRIPT_RE": g(A("^{", "a"), A("", "^")),
    "anchors.titles._TEX_CMD_RE": g(A("", "\\")),
    "anchors.titles._WORD_RE": g(A("", "a ")),
    "anchors.titles._SPACES_RE": g(A("", " a")),
    "anchors.titles._NOTICE_PREFIX_RE": g(A("", " ", "x"), A("WITHDRAWN", " ", "x"), use=M),
    # -- answers as JSON: run only on text json.loads accepted, so every string is closed
    # a lone surrogate half in a string json accepted: scrubbed only where an escape names one
    "anchors.jsonread._SURROGATE_ESCAPE": g(A("", "\\u"), A("", "\\ud")),
    "anchors.jsonread._SURROGATE": g(A("", "a"), A("", "\ud800")),
    "anchors.jsonread._TOKENS": g(A('"', 'a\\"', '"'), A("", "["), A("[", '"a",', "1]")),
    # -- titles and headings from services and pages, made stream-safe before NFC/NFKC: a run
    # of 30 non-ASCII characters (no match) read from each of its characters is 30 reads each
    "anchors.unicodenorm._LONG_RUN": g(A("", "é"), A("", "é" * 30 + "a"), A("", "\u0301")),
    # -- flags
    "anchors.cli.values._DURATION_RE": g(A("", " ", "x"), A(" 1", " ", "x"), use=F),
}

#: patterns no file or server reaches, with why
EXEMPT: dict[str, str] = {}

#: a `re.compile` inside a function (`module.function`): how to build one as the package does,
#: and its guard; the function is called with text a file wrote
DYNAMIC: dict[str, tuple[Callable[[], re.Pattern[str]], Guard]] = {
    # a changelog line's link to an issue by number: `[PR #3109](url)`, the URL escaped
    "anchors.extract.claims._link_by_number": (
        lambda: _link_by_number(3109, "https://github.com/o/r/pull/3109"),
        g(A("[", " ", "x"), A("[pr", " ", "x"), A("[#3109", " ", "x"), A("[#3109](", " ", "x")),
    ),
}
