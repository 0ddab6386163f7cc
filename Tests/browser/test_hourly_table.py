"""The hourly table is read on a phone without scrolling sideways (issue 28, item 7).

The table sits in a box that may scroll (`.table-scroll`), so the page-level overflow
check cannot see a cut-off column: this measures the box itself. Tests/browser/run.sh
runs it on the OpenWeather demo, on the Open-Meteo demo and on that demo in German,
whose words are longer, and on the MET Norway and NWS demos.
"""

from __future__ import annotations

import pytest

import harness

TABLE_JS = r"""
const box = document.querySelector('.hourly .table-scroll');
if (!box) return null;
const table = box.querySelector('table');
const cells = [...table.querySelectorAll('th, td')];
// A cell whose content spills past its own edge (a word too long for its column).
const spilling = cells.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent.trim());
return {scroll: box.scrollWidth, client: box.clientWidth, columns: table.rows[0].cells.length, spilling};
"""


@pytest.mark.parametrize("viewport_name", list(harness.VIEWPORTS))
def test_the_hourly_table_fits_without_scrolling(server, browsers, page, viewport_name):
    if page.kind != "city":
        pytest.skip("not a city page")
    viewport = harness.VIEWPORTS[viewport_name]
    driver = browsers(viewport_name, True)
    harness.load(driver, server.base_url + page.url_path, viewport)
    found = driver.execute_script(TABLE_JS)
    if found is None:
        pytest.skip("no hourly table on this page")
    assert found["columns"] >= 3, found
    assert found["scroll"] <= found["client"], (
        f"the hourly table scrolls sideways at {viewport['width']} px: "
        f"{found['scroll']} px of content in a {found['client']} px box")
    assert not found["spilling"], f"cells whose text spills out of their column: {found['spilling']}"
