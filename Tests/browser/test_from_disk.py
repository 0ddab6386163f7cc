"""The built site read straight from disk (file://), as the README says it can be.

A browser reading file:// has no directory index: a link to "london-gb/" shows a
folder listing, not the city page. So every link between pages must name the file.
The 404 page is left out: it is served for any missing path, so its links are
absolute paths under base_url, which only a web host resolves.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import harness

# Every URL a page would follow or fetch, resolved against the page as Chromium does
# (from the attribute: an SVG <a>'s href property is not a string).
LINKED_URLS_JS = """
const urls = [];
for (const el of document.querySelectorAll('[href], [src]')) {
  urls.push(new URL(el.getAttribute('href') ?? el.getAttribute('src'), document.baseURI).href);
}
return urls;
"""


def file_url(path: Path) -> str:
    return path.resolve().as_uri()


def open_from_disk(driver, path: Path) -> None:
    harness.load(driver, file_url(path), harness.VIEWPORTS["desktop"])


def heading(driver) -> str:
    return driver.find_element(By.CSS_SELECTOR, "h1").text.strip()


def follow(driver, selector: str) -> None:
    """Clicks the first element matching `selector` and waits for the next page."""
    before = driver.current_url
    driver.find_element(By.CSS_SELECTOR, selector).click()
    WebDriverWait(driver, 30).until(lambda d: d.current_url != before and d.execute_script(
        "return document.readyState") == "complete")


def test_the_index_opens_a_city_page_and_the_breadcrumb_leads_back(site, browsers):
    driver = browsers("desktop")
    open_from_disk(driver, site / "index.html")
    index_heading = heading(driver)
    first_city = driver.find_element(By.CSS_SELECTOR, "ul.cards .card-name").text
    name = first_city.rsplit(" ", 1)[0]

    follow(driver, "ul.cards a")
    assert heading(driver).startswith(name + ","), (
        f"{driver.current_url} is not {name}'s page: its heading is {heading(driver)!r}")
    assert driver.find_elements(By.CSS_SELECTOR, "section.now"), driver.current_url

    follow(driver, "nav.breadcrumb a")
    assert heading(driver) == index_heading, f"{driver.current_url}: {heading(driver)!r}"
    assert driver.find_elements(By.CSS_SELECTOR, "ul.cards li"), driver.current_url


def test_every_link_between_pages_names_a_file(site, pages, browsers):
    driver = browsers("desktop")
    problems = []
    for page in pages:
        if page.kind == "404":
            continue
        open_from_disk(driver, site / page.rel_path)
        for url in driver.execute_script(LINKED_URLS_JS):
            parts = urlsplit(url)
            if parts.scheme != "file":
                continue
            target = Path(unquote(parts.path))
            if not target.is_file():
                kind = "a folder" if target.is_dir() else "missing"
                problems.append(f"{page.rel_path}: {url} is {kind}")
    harness.fail_if(problems, "links that do not open from disk:")


def test_selftest_a_folder_link_is_caught(tmp_path, browsers):
    # A page linking to a folder, as the index once did: the check above must see it.
    (tmp_path / "city").mkdir()
    (tmp_path / "city" / "index.html").write_text("<!doctype html><title>c</title><h1>City</h1>")
    (tmp_path / "index.html").write_text('<!doctype html><title>i</title><a href="city/">City</a>')
    driver = browsers("desktop")
    open_from_disk(driver, tmp_path / "index.html")
    urls = driver.execute_script(LINKED_URLS_JS)
    assert urls == [(tmp_path / "city").as_uri() + "/"], urls
    assert Path(unquote(urlsplit(urls[0]).path)).is_dir()
    follow(driver, "a")
    assert heading(driver) != "City", "a folder link opened the page: the click test proves nothing"
