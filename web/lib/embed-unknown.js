// The embed's note for a link that names no figure (embed.html#widget=nope): loaded only then, by the loader (embed.js),
// so that no figure's embed carries its words.

/** Puts the note in `box`; `names`: the figures a link may name. */
export function showUnknown(box, names) {
  const p = document.createElement('p');
  p.className = 'embed-unknown';
  p.textContent =
    `This link names no parascope figure. Put one of ${names.join(', ')} after "#widget=", ` +
    'for example embed.html#widget=bubble&stages=8&microbatches=32&schedule=1f1b.';
  box.append(p);
}
