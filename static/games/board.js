// The game page's board: highlights every place where a decision can be made and, for a tapped
// place, shows its choices in a sheet, each with what it changes and its own Confirm (two taps a
// decision). It brings the decision into view when the page opens, and keeps an open sheet
// through other players' moves (live-game.js morphs the page, then sends "game:updated").
// Without this script every choice is still a form of its own.
(function () {
  "use strict";
  // Strings in the page's language (the JavaScript catalog); English when it is missing.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    var i = 0; return text.replace(/%s/g, function () { return values[i++]; });
  };
  // Persian pages write numbers in Persian digits, as the server does.
  function localDigits(number) {
    var text = String(number);
    return document.documentElement.lang === "fa" ? text.replace(/[0-9]/g, function (digit) {
      return "۰۱۲۳۴۵۶۷۸۹".charAt(Number(digit));
    }) : text;
  }
  document.documentElement.classList.add("js");
  var sheet = document.getElementById("sheet");
  if (!sheet || !window.fetch) { return; }
  var body = sheet.querySelector(".sheet-body");
  var title = document.getElementById("sheet-title");
  var opener = null, asked = null, showAll = false, deciding = false;

  function all(selector, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(selector));
  }
  function move() { return document.getElementById("your-move"); }
  function items() { return all("#choices > li"); }
  function places(key) { return all('#board [data-target="' + key + '"]'); }
  function targetsOf(element) {
    return (element.getAttribute("data-targets") || "").split(" ").filter(Boolean);
  }
  function mark(targetKeys) {
    all(".chosen").forEach(function (el) { el.classList.remove("chosen"); });
    targetKeys.forEach(function (key) {
      places(key).forEach(function (el) { el.classList.add("chosen"); });
    });
  }
  function morph(target, html) {
    if (window.Idiomorph) { window.Idiomorph.morph(target, html, {morphStyle: "innerHTML"}); }
    else { target.innerHTML = html; }
  }

  // Marks the places of the decision on the board and folds the listed choices that have one;
  // again after each update (the server's HTML has none of these marks). Returns the first.
  function decorate() {
    var section = move();
    if (!section) { return null; }
    var tappable = {}, first = null;
    (section.dataset.targets || "").split(" ").filter(Boolean).forEach(function (key) {
      places(key).forEach(function (el) {
        tappable[key] = true;
        el.classList.add("tap");
        var folded = el.closest("details");
        if (folded) { folded.open = true; }
        if (!/^(BUTTON|A)$/.test(el.tagName)) {
          el.setAttribute("role", "button");
          el.setAttribute("tabindex", "0");
        }
      });
    });
    var hidden = 0;
    items().forEach(function (li) {
      if (!showAll && targetsOf(li).some(function (key) { return tappable[key]; })) {
        li.hidden = true;
        hidden += 1;
      }
    });
    if (hidden) {
      var list = document.createElement("button");
      list.type = "button";
      list.className = "secondary show-all";
      list.textContent = interpolate(gettext("List all %s choices"), [localDigits(items().length)]);
      section.appendChild(list);
    }
    all("#board .tap").some(function (el) { first = el; return true; });
    return first || section.querySelector("#choices > li:not([hidden]) button");
  }

  // The first place to tap, brought into view when it is not (the page opens at the top, or
  // at #play after a move, and the board may be taller than the phone).
  function reveal(first) {
    if (!first || location.hash.length > 1 && location.hash !== "#play") { return; }
    var box = first.getBoundingClientRect(), bar = document.getElementById("turn-bar");
    // Under the turn bar (it stays at the top) is out of view too.
    if (box.top < (bar ? bar.getBoundingClientRect().bottom : 0) ||
        box.bottom > window.innerHeight) {
      first.scrollIntoView({block: box.height > window.innerHeight / 2 ? "start" : "center"});
    }
  }

  function close() {
    sheet.hidden = true;
    body.innerHTML = "";
    asked = null;
    mark([]);
    if (opener && document.contains(opener)) { opener.focus(); }
  }
  function show(heading) {
    title.textContent = heading;
    sheet.hidden = false;
    title.setAttribute("tabindex", "-1");
    title.focus();
  }
  // Fetches the sheet for what was tapped: a place's choices, or one listed choice, at the
  // version the page shows now.
  function load(question) {
    var version = document.getElementById("live-game").dataset.version;
    var url = sheet.dataset.previewUrl + "?version=" + encodeURIComponent(version);
    if (question.target) {
      url += "&target=" + encodeURIComponent(question.target);
    } else {
      if (question.version !== version) {
        // The list was drawn anew: the same choice by its words, if it is still there.
        var item = items().filter(function (li) {
          return li.querySelector("bdi").textContent === question.label;
        })[0];
        // Gone: the server words that in the page's language.
        question.index = item ? item.querySelector("input[name=index]").value : "gone";
        question.version = version;
      }
      url += "&index=" + encodeURIComponent(question.index);
    }
    return fetch(url, {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (response) { return response.ok ? response.text() : Promise.reject(); });
  }
  function open(question, heading, element, fallback) {
    opener = element;
    asked = question;
    load(question).then(function (html) {
      if (asked !== question) { return; }
      body.innerHTML = html;
      show(heading);
      var panels = all(".confirm", body);
      mark(question.target ? [question.target] : panels.length ? targetsOf(panels[0]) : []);
      var confirm = body.querySelector(".confirm-button");
      if (confirm && panels.length === 1) { confirm.focus(); }
    }).catch(function () {
      // No sheet (offline, an error): the plain form leads to the Confirm page instead.
      if (fallback) { fallback.submit(); }
    });
  }
  function openPlace(el) {
    var heading = el.getAttribute("data-label") || el.getAttribute("aria-label") ||
      el.textContent.trim().split("\n")[0];
    open({target: el.getAttribute("data-target")}, heading, el, null);
  }

  // After another player's move: the sheet shows its place as it is now; a choice taken away
  // says so in it. A sheet whose Confirm is being sent is left alone.
  document.addEventListener("game:updated", function () {
    var waited = !deciding, first = decorate();
    deciding = !!first;
    // The player's turn came while they looked at the page: bring it to them, unless they
    // are busy with something else (a sheet, a field).
    if (waited && first && sheet.hidden && !/^(INPUT|TEXTAREA|SELECT)$/.test(
        document.activeElement && document.activeElement.tagName)) {
      reveal(first);
    }
    if (!asked || sheet.dataset.sending) { return; }
    var question = asked;
    load(question).then(function (html) {
      if (asked !== question || sheet.dataset.sending) { return; }
      morph(body, html);
      mark(question.target ? [question.target] : []);
    }).catch(function () {});
  });

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target.closest("#sheet")) {
      if (target.closest(".sheet-close") || target.closest(".back")) {
        event.preventDefault();
        close();
      }
      return;
    }
    var place = target.closest("#board .tap");
    if (place) { openPlace(place); return; }
    if (target.closest(".show-all")) {
      showAll = true;
      items().forEach(function (li) { li.hidden = false; });
      target.closest(".show-all").remove();
      return;
    }
    if (target.closest(".your-pick .change")) {
      move().classList.remove("folded");
      return;
    }
    if (!sheet.hidden) { close(); }  // a tap outside the sheet puts it away
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !sheet.hidden) { close(); return; }
    var place = event.target.closest && event.target.closest("#board .tap");
    if (place && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      openPlace(place);
    }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.querySelector("input[name=confirm]")) {
      // A Confirm is on its way: no update may replace the sheet or the page under it.
      if (form.closest("#sheet")) { sheet.dataset.sending = "1"; }
      document.documentElement.dataset.submitting = "1";
      return;
    }
    if (!form.closest("#your-move")) { return; }
    event.preventDefault();
    open({label: form.querySelector("bdi").textContent,
          index: form.querySelector("input[name=index]").value,
          version: form.querySelector("input[name=version]").value},
         gettext("Confirm your move"), form.querySelector("button"), form);
  });
  // Back from the browser's page cache: nothing is being sent any more.
  window.addEventListener("pageshow", function () {
    delete sheet.dataset.sending;
    delete document.documentElement.dataset.submitting;
  });

  var first = decorate(), deciding = !!first;
  reveal(first);
  // The browser's own jump to #play (the page after a move) may come after this script.
  window.addEventListener("load", function () { reveal(first); });
})();
