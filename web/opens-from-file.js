// The iframe route's watch for file:// (a classic script, so it runs there, where a browser refuses the module that
// draws the figure): only then does it load opens-anywhere.js, the page's plain-words explanation. Served over http it
// does nothing more, so an embedded figure downloads the explanation only where it is needed.
(function () {
  if (location.protocol !== 'file:') return;
  var explain = document.createElement('script');
  explain.src = 'opens-anywhere.js';
  document.head.appendChild(explain);
})();
