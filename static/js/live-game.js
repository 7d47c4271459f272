// Keeps an open game page current in place: listens to the game's event stream (Server-Sent
// Events) and, when the game moved, fetches the part of the page that follows the game and
// morphs it in (idiomorph), so the player keeps their place, their open sheet and their typed
// text; board.js hears "game:updated" afterwards. Where the stream cannot be opened it polls the
// game's version instead. A page looking back at a past move only says that the game moved on.
(function () {
  "use strict";
  var region = document.getElementById("game-live");
  if (!region || !window.fetch) { return; }
  function marker() { return document.getElementById("live-game"); }
  var first = marker();
  var visibleDelay = 4000, hiddenDelay = 30000, timer = null, source = null;
  var running = false, again = false, mode = "";

  // How the page follows the game ("stream" or "polling"), kept on the marker across updates.
  function follow(how) { mode = how; marker().dataset.live = how; }

  function known() {
    var data = marker().dataset;
    return [data.version, data.status, data.seats].join("/");
  }

  // A field the player is using or has typed into keeps its value; everything else follows.
  function keep(old) {
    if (!/^(INPUT|TEXTAREA|SELECT)$/.test(old.tagName) || old.type === "hidden") { return true; }
    if (old === document.activeElement) { return false; }
    if (old.tagName === "SELECT") {
      var chosen = old.options[old.selectedIndex];
      return !chosen || chosen.defaultSelected;
    }
    return old.value === old.defaultValue;
  }

  function refresh() {
    if (running) { again = true; return; }
    if (marker().dataset.history || !window.Idiomorph) {
      document.getElementById("live-game-notice").hidden = false;
      return;
    }
    running = true;
    fetch(marker().dataset.liveUrl + location.search.replace(/([?&])(confirm|version)=[^&]*/g, "$1"),
          {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (response) { return response.ok ? response.text() : Promise.reject(); })
      .then(function (html) {
        // A Confirm being sent ends in a new page anyway; cutting it off would lose it.
        if (document.documentElement.dataset.submitting) { return; }
        if (marker().dataset.status === "open" && html.indexOf('data-status="open"') < 0) {
          // The game started: a new page, with its board's own styles (allowed by the
          // nonce of the page they come with).
          window.location.reload();
          return;
        }
        window.Idiomorph.morph(region, html, {
          morphStyle: "innerHTML",
          callbacks: {
            beforeNodeMorphed: function (old) {
              // The board's styles stay those the page loaded with (a nonce is for one page).
              return old.nodeType !== 1 || old.tagName !== "STYLE" && keep(old);
            },
            // A section the player opened or closed (the log) stays as they left it.
            beforeAttributeUpdated: function (name) { return name !== "open"; },
          },
        });
        follow(mode);
        document.dispatchEvent(new CustomEvent("game:updated"));
      })
      .catch(function () { document.getElementById("live-game-notice").hidden = false; })
      .then(function () {
        running = false;
        if (again) { again = false; refresh(); }
      });
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(check, document.hidden ? hiddenDelay : visibleDelay);
  }

  function check() {
    fetch(marker().dataset.versionUrl, {headers: {"Accept": "application/json"},
                                        credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (current) {
        if (current && [current.version, current.status, current.seats].join("/") !== known()) {
          refresh();
        }
        schedule();
      })
      .catch(schedule);
  }

  function poll() {
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { check(); } });
    check();
  }

  function listen() {
    // Resume after the version this page shows: only what happened since comes.
    source = new EventSource(first.dataset.streamUrl + "?last_event_id=" + first.dataset.version);
    follow("stream");
    source.addEventListener("move", function (event) {
      if (JSON.parse(event.data).version > Number(marker().dataset.version)) { refresh(); }
    });
    source.addEventListener("status", function (event) {
      var data = JSON.parse(event.data);
      if (data.status !== marker().dataset.status ||
          String(data.seats_taken) !== marker().dataset.seats) {
        refresh();
      }
    });
    source.addEventListener("end", function () { source.close(); refresh(); });
    source.onerror = function () {
      // The browser reconnects by itself after a dropped connection; a refused stream is
      // closed for good: fall back to polling.
      if (source.readyState === EventSource.CLOSED) {
        follow("polling");
        poll();
      }
    };
  }

  if (window.EventSource && first.dataset.streamUrl) { listen(); } else { schedule(); }
})();
