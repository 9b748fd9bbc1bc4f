// A classic script (it runs where module scripts cannot, e.g. from file://): says in place, in plain words, why the
// figures are not running and how to fix it, instead of leaving empty boxes.
(function () {
  var LATE_MS = 10000;
  var SERVE = 'python3 -m http.server 8000';

  /** Puts `text` inside every parascope element not yet running (an undefined element shows its own children). */
  function sayInFigures(text) {
    var figures = document.querySelectorAll(':not(:defined)'); // every figure's tag starts parascope-
    for (var i = 0; i < figures.length; i += 1) {
      if (figures[i].localName.indexOf('parascope-') !== 0) continue;
      if (figures[i].querySelector('.parascope-stopped')) continue;
      var p = document.createElement('p');
      p.className = 'parascope-stopped';
      p.textContent = text;
      figures[i].appendChild(p);
      figures[i].setAttribute('data-failed', ''); // embed.css's own late note stays away
    }
  }

  function fromFile() {
    var banner = document.createElement('div');
    banner.className = 'parascope-file-note';
    banner.setAttribute('role', 'note');
    var intro = document.createElement('p');
    intro.textContent =
      'This page was opened as a file, and browsers do not run its figures from a file (they refuse ' +
      'to load JavaScript modules and WebAssembly from file:// addresses). Serve the folder instead: in a terminal, ' +
      'in the folder that holds this page, run';
    var command = document.createElement('code');
    command.textContent = SERVE;
    var then = document.createElement('p');
    then.textContent = 'then open http://localhost:8000/' + location.pathname.split('/').pop() + ' in the browser.';
    var pre = document.createElement('pre');
    pre.appendChild(command);
    banner.appendChild(intro);
    banner.appendChild(pre);
    banner.appendChild(then);
    document.body.insertBefore(banner, document.body.firstChild);
    sayInFigures(
      'This figure runs only when the page is served over http (see the note at the top of the page): ' +
        SERVE +
        ' in its folder.',
    );
  }

  function late() {
    sayInFigures(
      "This figure did not start: its script did not load (it may be blocked by the page's settings, an " +
        'extension, or an old browser).',
    );
  }

  function ready() {
    if (location.protocol === 'file:') fromFile();
    else setTimeout(late, LATE_MS);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready);
  else ready();
})();
