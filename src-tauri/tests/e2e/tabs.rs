//! Issue 14's tabs in the real app: twelve documents do not fit the tab strip, so the menu of
//! all open documents appears and shows the one chosen (its tab current and scrolled into
//! view); each tab's close button closes its document; after each close the menu is there
//! exactly when the tabs left do not fit the tab area (measured from the tabs' own widths), and
//! it is gone once they fit. (It used to stay: the menu's own width narrowed the strip, so
//! tabs that fit the area again still overflowed the strip.)

use thirtyfour::components::SelectElement;
use thirtyfour::prelude::*;

use crate::harness::{corpus, Desktop, Launch};

#[tokio::test(flavor = "multi_thread")]
async fn tabs_overflow_into_a_menu_and_close_with_their_buttons() {
    let dir = tempfile::tempdir().expect("tmp");
    let files: Vec<_> = (1..=12)
        .map(|i| {
            let p = dir.path().join(format!("customer-support-escalation-flow-{i:02}.json"));
            std::fs::copy(corpus("ilmek/docs/graphs-as-data.mdx-support-agent.json"), &p).expect("copy");
            p
        })
        .collect();
    let app = Desktop::launch(Launch { files, ..Launch::default() }).await;
    let docs = app.documents().await;
    assert_eq!(docs.len(), 12, "{docs:?}");
    let first = docs[0]["id"].as_str().expect("id").to_string();

    // Twelve long names do not fit: the menu of all documents is there.
    let menu = app.visible("[data-testid=\"tabs-menu\"]").await;
    SelectElement::new(&menu).await.expect("a select").select_by_value(&first).await.expect("choose");
    let current = format!(
        "const t = document.querySelector('[data-testid=tab][data-doc-id=\"{first}\"]');
         const s = document.querySelector('.tabs').getBoundingClientRect();
         if (!t || t.getAttribute('aria-current') !== 'page') return false;
         const r = t.getBoundingClientRect();
         return r.left >= s.left - 1 && r.right <= s.right + 1;"
    );
    app.wait_js(&current, "the chosen document's tab to be current and in view").await;

    // Close buttons: the shown tab's closes its document (the next one is shown, in view); the
    // others follow; the menu is there exactly while the tabs do not fit.
    for n in (2..=11).rev() {
        let buttons = app.driver.find_all(By::Css("[data-testid=\"tab-close\"]")).await.expect("buttons");
        assert_eq!(buttons.len(), n + 1, "one close button per tab");
        // WebKitWebDriver calls the strip's buttons "not interactable" once the strip scrolls
        // (its in-view check on a horizontally scrolled flex row), so the button is clicked from
        // the page: the same element and handler a user's click reaches.
        let close = app.visible(".tab.active [data-testid=\"tab-close\"]").await;
        app.driver
            .execute("arguments[0].click();", vec![close.to_json().expect("element")])
            .await
            .expect("close");
        let deadline = std::time::Instant::now() + crate::harness::PATIENCE;
        while app.documents().await.len() != n {
            assert!(std::time::Instant::now() < deadline, "the document did not close");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        menu_matches_fit(&app, n).await;
    }

    // Two long names do not fit a 1280-pixel window. Widened until they fit the tab area with
    // less to spare than the menu takes: the menu goes (it stayed before: measured against the
    // strip it had narrowed). Narrowed again: it comes back.
    let (need, room) = widths(&app).await;
    assert!(need > room, "two tabs overflow at 1280 pixels: {need} > {room}");
    let r = app.driver.get_window_rect().await.expect("window rect");
    let wider = r.width as f64 + (need - room) + 40.0;
    app.driver.set_window_rect(r.x, r.y, wider.ceil() as u32, r.height as u32).await.expect("widen");
    app.wait_js(&format!("return window.innerWidth >= {};", (wider - 2.0).floor()), "the window to be wider")
        .await;
    app.wait_js("return !document.querySelector('[data-testid=\"tabs-menu\"]');", "the menu to go").await;
    assert!(menu_matches_fit(&app, 2).await, "the two tabs fit now");
    let (need, room) = widths(&app).await;
    assert!(
        need <= room && need > room - 160.0,
        "they fit the area, not the area less the menu: {need} / {room}"
    );
    app.driver.set_window_rect(r.x, r.y, r.width as u32, r.height as u32).await.expect("narrow");
    app.visible("[data-testid=\"tabs-menu\"]").await;
    assert!(!menu_matches_fit(&app, 2).await);
    let left = app.documents().await;
    assert!(left.iter().all(|d| d["id"] != first.as_str()), "the first document is closed: {left:?}");
    app.quit().await;
}

/// Waits until `n` tabs are drawn and the menu is shown exactly when they do not fit the tab
/// area side by side (their widths and the strip's 2-pixel gaps against the area's width, the
/// strip's room when there is no menu); answers whether they fit.
async fn menu_matches_fit(app: &Desktop, n: usize) -> bool {
    let fit = format!(
        "const tabs = [...document.querySelectorAll('.tabs .tab')];
         if (tabs.length !== {n}) return null;
         const area = document.querySelector('.tabs-area').clientWidth;
         const need = tabs.reduce((w, t) => w + t.getBoundingClientRect().width, 0) + 2 * (tabs.length - 1);
         return need <= area + 1;"
    );
    let menu_agrees = format!(
        "const fits = (() => {{ {fit} }})();
         if (fits === null) return false;
         return fits === !document.querySelector('[data-testid=\"tabs-menu\"]');"
    );
    app.wait_js(&menu_agrees, &format!("the menu to be shown exactly when {n} tabs do not fit")).await;
    let r = app.driver.execute(&fit, vec![]).await.expect("script");
    r.json().as_bool().expect("measured")
}

/// The width the tabs need side by side and the tab area's width.
async fn widths(app: &Desktop) -> (f64, f64) {
    let r = app
        .driver
        .execute(
            "const tabs = [...document.querySelectorAll('.tabs .tab')];
             const need = tabs.reduce((w, t) => w + t.getBoundingClientRect().width, 0) + 2 * (tabs.length - 1);
             return [need, document.querySelector('.tabs-area').clientWidth];",
            vec![],
        )
        .await
        .expect("script");
    let v = r.json();
    (v[0].as_f64().expect("need"), v[1].as_f64().expect("room"))
}
