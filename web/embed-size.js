// Sizes parascope iframes to their figure: each embed.html posts { type: "parascope:height", widget, height } (CSS px)
// whenever its height changes; this finds the iframe it came from and sets that height. Copy it into a page (or load
// it with <script src>); iframes keep their height attribute where scripts are not allowed.
addEventListener('message', function (event) {
  var data = event.data;
  if (!data || data.type !== 'parascope:height' || !(data.height > 0 && data.height < 100000)) return;
  var frames = document.getElementsByTagName('iframe');
  for (var i = 0; i < frames.length; i += 1) {
    if (frames[i].contentWindow === event.source) frames[i].style.height = Math.ceil(data.height) + 'px';
  }
});
