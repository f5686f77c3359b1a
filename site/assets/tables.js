/* Filter and sort for the long tables (check results, coverage ledger): progressive, the table reads whole
   without it. A <form class="r40k-filter" data-table="ID"> names the table wrapped in <div id="ID">; its search
   box keeps the rows holding the text, each <select data-column="HEADER"> the rows whose cell under that header
   holds the value as a word; clicking a header sorts by that column (again: the other way). */
(function () {
  "use strict";
  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
  var NUMBER = /^-?\d+(\.\d+)?%?$/;

  function text(cell) {
    return cell ? cell.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function compare(a, b) {
    if (a === b) return 0;
    if (a === "") return 1; // empty cells last, whichever the direction
    if (b === "") return -1;
    var na = NUMBER.test(a), nb = NUMBER.test(b);
    if (na && nb) return parseFloat(a) - parseFloat(b);
    if (na !== nb) return na ? -1 : 1;
    return collator.compare(a, b);
  }

  function setUp(form) {
    var holder = document.getElementById(form.getAttribute("data-table"));
    var table = holder && holder.querySelector("table");
    if (!table || !table.tBodies.length) return;
    var body = table.tBodies[0];
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var names = headers.map(text);
    var rows = Array.prototype.slice.call(body.rows).map(function (row, index) {
      var cells = Array.prototype.map.call(row.cells, text);
      return { row: row, index: index, cells: cells, all: cells.join(" ").toLowerCase() };
    });
    var search = form.querySelector("input[type=search]");
    var selects = Array.prototype.slice.call(form.querySelectorAll("select[data-column]"));
    var output = form.querySelector(".r40k-count");
    var noun = form.getAttribute("data-noun") || "rows";

    function apply() {
      var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
      var wanted = selects.map(function (select) {
        return { column: names.indexOf(select.getAttribute("data-column")), value: select.value };
      }).filter(function (w) { return w.value && w.column >= 0; });
      var shown = 0;
      rows.forEach(function (r) {
        var keep = words.every(function (word) { return r.all.indexOf(word) >= 0; }) &&
          wanted.every(function (w) {
            var cell = r.cells[w.column];
            return cell === w.value || (" " + cell + " ").indexOf(" " + w.value + " ") >= 0;
          });
        r.row.hidden = !keep;
        if (keep) shown += 1;
      });
      output.value = shown === rows.length ? rows.length + " " + noun : shown + " of " + rows.length + " " + noun;
    }

    function sortBy(column) {
      var header = headers[column];
      var ascending = header.getAttribute("aria-sort") !== "ascending";
      headers.forEach(function (h) { h.removeAttribute("aria-sort"); });
      header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      rows.sort(function (a, b) {
        var order = compare(a.cells[column], b.cells[column]);
        if (order !== 0 && a.cells[column] !== "" && b.cells[column] !== "") order = ascending ? order : -order;
        return order || a.index - b.index;
      });
      var fragment = document.createDocumentFragment();
      rows.forEach(function (r) { fragment.appendChild(r.row); });
      body.appendChild(fragment);
    }

    headers.forEach(function (header, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "r40k-sort";
      button.title = "Sort by " + names[column];
      while (header.firstChild) button.appendChild(header.firstChild);
      header.appendChild(button);
      button.addEventListener("click", function () { sortBy(column); });
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.hidden = false;
    table.setAttribute("data-sortable", ""); // not a class: Material styles only tables without one
    apply();
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("form.r40k-filter"), setUp);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
