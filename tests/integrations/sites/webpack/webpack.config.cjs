// webpack 5 as a front end writes it: a style-loader/css-loader rule for .css (which the figures' styles must not
// go through: they are constructable sheets inside the JavaScript).
const path = require('node:path');

module.exports = {
  mode: 'production',
  entry: './src/index.js',
  output: { path: path.resolve(__dirname, 'public'), filename: 'main.js', publicPath: 'auto', clean: false },
  module: { rules: [{ test: /\.css$/i, use: ['style-loader', 'css-loader'] }] },
  performance: { hints: false },
};
