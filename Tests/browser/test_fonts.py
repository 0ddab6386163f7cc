"""No tofu: every letter and digit a page shows has a glyph in Chromium (issue 30).

A page in Hebrew, Arabic, Hindi, Thai or Japanese needs fonts the stylesheet only names
(Public/style.css, "font stacks per script"); on a machine without them (the README's
quick start installs fonts-noto-core and fonts-noto-cjk) Chromium draws each letter as
an empty box. Each distinct non-ASCII letter, digit or symbol of the page is drawn on a canvas in
the body's font and compared, pixel for pixel, with what Chromium draws for an unassigned
code point (U+0378), which no font has: a letter drawn the same way is tofu. run.sh
checks `fc-list :lang=XX` first, which says which package is missing.
"""

from __future__ import annotations

import pytest

import harness

# Draws each distinct character of `text` (default: the page's visible text) and returns
# those drawn exactly like the reference code point, and how many were compared.
TOFU_JS = r"""
const given = arguments[0];
const text = given === null ? document.body.innerText : given;
// Letters, digits and symbols; not spaces, marks (drawn alone they are no test) or controls.
const chars = [...new Set([...text].filter(c => c.codePointAt(0) > 0x7f && !/[\p{Z}\p{M}\p{Cc}\p{Cf}]/u.test(c)))];
const canvas = document.createElement('canvas');
canvas.width = 64; canvas.height = 64;
const ctx = canvas.getContext('2d', {willReadFrequently: true});
ctx.font = '40px ' + getComputedStyle(document.body).fontFamily;
ctx.textBaseline = 'middle';
const draw = c => {
  ctx.clearRect(0, 0, 64, 64);
  ctx.fillText(c, 8, 32);
  return ctx.getImageData(0, 0, 64, 64).data.join(',');
};
const notdef = draw('\u0378');
const blank = (ctx.clearRect(0, 0, 64, 64), ctx.getImageData(0, 0, 64, 64).data.join(','));
return {font: ctx.font, compared: chars.length, blankNotdef: notdef === blank,
        tofu: chars.filter(c => draw(c) === notdef)};
"""


def tofu_problems(found: dict) -> list[str]:
    if not found["tofu"]:
        return []
    shown = " ".join(f"{c} U+{ord(c):04X}" for c in found["tofu"][:20])
    more = f" (+{len(found['tofu']) - 20} more)" if len(found["tofu"]) > 20 else ""
    return [f"  {len(found['tofu'])} of {found['compared']} characters have no glyph in "
            f"{found['font']!r}: {shown}{more}",
            "  install the fonts (README, quick start: fonts-noto-core fonts-noto-cjk)"]


def test_every_character_has_a_glyph(browsers, server, page):
    driver = browsers("desktop")
    harness.load(driver, server.base_url + page.url_path, harness.VIEWPORTS["desktop"])
    found = driver.execute_script(TOFU_JS, None)
    assert not found["blankNotdef"], "the reference code point draws nothing: the comparison proves nothing"
    harness.fail_if(tofu_problems(found), f"tofu on {page.rel_path} (lang={driver.execute_script('return document.documentElement.lang')}):")


def test_selftest_tofu_is_detected(browsers, server):
    # U+1B000 (KATAKANA LETTER ARCHAIC E) is assigned, but neither Noto package has it;
    # U+0380 is unassigned, like the reference; é and € are in every font.
    driver = browsers("desktop")
    harness.load(driver, server.base_url + "/", harness.VIEWPORTS["desktop"])
    found = driver.execute_script(TOFU_JS, "\U0001B000\u0380é€é")
    assert found["compared"] == 4, found
    assert set(found["tofu"]) == {"\U0001B000", "\u0380"}, found
