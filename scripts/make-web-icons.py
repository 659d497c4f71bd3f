#!/usr/bin/env python3
"""Renders Web/icons/icon.svg into the PNG icons the web app manifest and iOS ask for.

Run once after changing icon.svg (the PNGs are committed): needs Playwright for Python and Debian's
chromium, as the web tests do. The maskable icon keeps the mark inside the 80% safe zone on a full-bleed
red square.
"""
import pathlib
from playwright.sync_api import sync_playwright

ICONS = pathlib.Path(__file__).resolve().parent.parent / "Web" / "icons"
svg = (ICONS / "icon.svg").read_text()

def page_for(size, maskable):
    inner = 0.72 if maskable else 1.0
    background = "linear-gradient(135deg,#ff5a4e,#d9262c)" if maskable else "transparent"
    return f"""<html><body style="margin:0;width:{size}px;height:{size}px;background:{background};display:grid;place-items:center">
      <div style="width:{int(size * inner)}px;height:{int(size * inner)}px">{svg.replace('<svg ', '<svg width="100%" height="100%" ')}</div></body></html>"""

with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
    for name, size, maskable in [("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("icon-maskable-512.png", 512, True), ("apple-touch-icon.png", 180, True)]:
        page = browser.new_page(viewport={"width": size, "height": size})
        page.set_content(page_for(size, maskable))
        page.screenshot(path=str(ICONS / name), omit_background=not maskable)
        page.close()
        print("wrote", ICONS / name)
    browser.close()
