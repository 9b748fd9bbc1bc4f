// Vite: no asset inlined (a data: script or an inline style would need a looser Content-Security-Policy).
export default { build: { assetsInlineLimit: 0, outDir: 'public' }, optimizeDeps: { exclude: ['parascope'] } };
