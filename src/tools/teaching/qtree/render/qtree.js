(function () {
  var glyphs = { K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658', P: '\u2659',
                 k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F\uFE0E' };
  var files = 'abcdefgh';
  function draw(el) {
    var fen = el.getAttribute('data-fen');
    if (!fen) { return; }
    var rows = fen.split(' ')[0].split('/');
    if (rows.length !== 8) { return; }
    var from = el.getAttribute('data-from'), to = el.getAttribute('data-to');
    for (var r = 0; r < 8; r++) {
      var f = 0, row = rows[r];
      for (var i = 0; i < row.length && f < 8; i++) {
        var c = row.charAt(i);
        if (c >= '1' && c <= '8') {
          for (var k = 0; k < +c && f < 8; k++, f++) { set(f, 7 - r, ''); }
        } else { set(f, 7 - r, glyphs[c] || ''); f++; }
      }
      for (; f < 8; f++) { set(f, 7 - r, ''); }
    }
    function set(file, rank, text) {
      var name = files.charAt(file) + (rank + 1);
      var td = document.getElementById('sq-' + name);
      if (!td) { return; }
      td.textContent = text;
      td.classList.toggle('hl', name === from || name === to);
    }
    var side = fen.split(' ')[1] === 'b' ? 'Black' : 'White';
    var path = el.getAttribute('data-path') || '';
    document.getElementById('where').textContent =
      (path ? 'After ' + path : 'Root position') + ' (' + side + ' to move)';
    var old = document.querySelector('.node.sel');
    if (old) { old.classList.remove('sel'); }
    el.classList.add('sel');
  }
  var nodes = document.querySelectorAll('[data-fen]');
  for (var i = 0; i < nodes.length; i++) {
    (function (el) {
      el.addEventListener('mouseenter', function () { draw(el); });
      el.addEventListener('focus', function () { draw(el); });
    })(nodes[i]);
  }
  window.qtreeToggle = function (open) {
    var ds = document.querySelectorAll('.tree details');
    for (var i = 0; i < ds.length; i++) { ds[i].open = open; }
  };
})();
