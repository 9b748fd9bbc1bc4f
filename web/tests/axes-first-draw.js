// Records every request the page's engine answers (window.__asked: op, and whether the axes had drawn by then), then
// puts one <parascope-axes> on the page with the attributes of the address's query (?model=llama3-8b&ep=1).
import { loadEngine } from '../lib/engine.js';

window.__asked = [];
const engine = await loadEngine();
for (const method of ['call', 'callText', 'callWithAttachment']) {
  const answer = engine[method];
  engine[method] = (request, ...rest) => {
    const op = typeof request === 'string' ? JSON.parse(request).op : request.op;
    window.__asked.push({ op, drawn: Boolean(document.querySelector('parascope-axes')?.hasAttribute('data-ready')) });
    return answer(request, ...rest);
  };
}
await import('../widgets/axes/element.js');
const axes = document.createElement('parascope-axes');
for (const [name, value] of new URLSearchParams(location.search)) axes.setAttribute(name, value);
document.getElementById('figure').append(axes);
