// The game page's board: highlights every place where a decision can be made, shows the legal
// choices for a tapped place in a sheet, and asks for Confirm (with the server's preview)
// before a choice is sent. Without this script every choice is still a form of its own.
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
  var move = document.getElementById("your-move");
  var sheet = document.getElementById("sheet");
  if (!move || !sheet || !window.fetch) { return; }
  var body = sheet.querySelector(".sheet-body");
  var title = document.getElementById("sheet-title");
  var items = Array.prototype.slice.call(move.querySelectorAll("#choices > li"));
  var keys = (move.dataset.targets || "").split(" ").filter(Boolean);
  var opener = null;

  function places(key) {
    return Array.prototype.slice.call(document.querySelectorAll('[data-target="' + key + '"]'));
  }
  function targetsOf(element) {
    return (element.getAttribute("data-targets") || "").split(" ").filter(Boolean);
  }
  function mark(targetKeys) {
    Array.prototype.forEach.call(document.querySelectorAll(".chosen"), function (el) {
      el.classList.remove("chosen");
    });
    targetKeys.forEach(function (key) {
      places(key).forEach(function (el) { el.classList.add("chosen"); });
    });
  }
  function close() {
    sheet.hidden = true;
    body.innerHTML = "";
    mark([]);
    if (opener) { opener.focus(); }
  }
  function show(heading, nodes) {
    title.textContent = heading;
    body.innerHTML = "";
    nodes.forEach(function (node) { body.appendChild(node); });
    sheet.hidden = false;
    title.setAttribute("tabindex", "-1");
    title.focus();
  }
  function choicesFor(key, heading, element) {
    opener = element;
    var matching = items.filter(function (li) { return targetsOf(li).indexOf(key) >= 0; });
    if (matching.length === 1) {
      // One thing to do here: straight to its preview and Confirm.
      mark([key]);
      preview(matching[0].querySelector("form"));
      return;
    }
    var list = document.createElement("ol");
    list.className = "choices";
    items.forEach(function (li) {
      if (targetsOf(li).indexOf(key) >= 0) {
        var copy = li.cloneNode(true);
        copy.hidden = false;
        list.appendChild(copy);
      }
    });
    mark([key]);
    show(heading, [list]);
  }
  function preview(form) {
    var index = form.querySelector("input[name=index]").value;
    var url = move.dataset.previewUrl + "?index=" + encodeURIComponent(index) +
      "&version=" + encodeURIComponent(move.dataset.version);
    fetch(url, {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (response) { return response.ok ? response.text() : Promise.reject(); })
      .then(function (html) {
        var holder = document.createElement("div");
        holder.innerHTML = html;
        var panel = holder.querySelector(".confirm");
        show(gettext("Confirm your move"), [holder]);
        mark(panel ? targetsOf(panel) : []);
        var confirm = holder.querySelector(".confirm-button");
        if (confirm) { confirm.focus(); }
      })
      .catch(function () { form.insertAdjacentHTML("beforeend", '<input type="hidden" name="confirm" value="0">'); form.submit(); });
  }

  // Choices that have a place on the board are reached from there; the rest stay listed.
  var tappable = {};
  keys.forEach(function (key) {
    places(key).forEach(function (el) {
      tappable[key] = true;
      el.classList.add("tap");
      var folded = el.closest("details");
      if (folded) { folded.open = true; }
      if (!/^(BUTTON|A)$/.test(el.tagName)) {
        el.setAttribute("role", "button");
        el.setAttribute("tabindex", "0");
      }
      var heading = el.getAttribute("data-label") || el.getAttribute("aria-label") ||
        el.textContent.trim().split("\n")[0];
      el.addEventListener("click", function () { choicesFor(key, heading, el); });
      el.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          choicesFor(key, heading, el);
        }
      });
    });
  });
  var hidden = 0;
  items.forEach(function (li) {
    if (targetsOf(li).some(function (key) { return tappable[key]; })) {
      li.hidden = true;
      hidden += 1;
    }
  });
  if (hidden) {
    var all = document.createElement("button");
    all.type = "button";
    all.className = "secondary show-all";
    all.textContent = interpolate(gettext("List all %s choices"), [localDigits(items.length)]);
    all.addEventListener("click", function () {
      items.forEach(function (li) { li.hidden = false; });
      all.remove();
    });
    move.appendChild(all);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest || form.querySelector("input[name=confirm]")) { return; }
    if (!form.closest("#your-move") && !form.closest("#sheet")) { return; }
    event.preventDefault();
    opener = form.querySelector("button");
    preview(form);
  });
  sheet.addEventListener("click", function (event) {
    if (event.target.closest(".sheet-close") || event.target.closest(".back")) {
      event.preventDefault();
      close();
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !sheet.hidden) { close(); }
  });
  var change = document.querySelector(".your-pick .change");
  if (change) {
    change.addEventListener("click", function () { move.classList.remove("folded"); });
  }
})();
