// svc dashboard: small enhancements over server-rendered pages that work without it.
// No inline handlers anywhere (the CSP forbids them): behaviour hangs off data- attributes.
(function () {
  'use strict';
  document.documentElement.classList.add('js');

  // Forms that ask before they send: <form data-confirm="Sure?">.
  document.addEventListener('submit', function (e) {
    var f = e.target;
    if (f instanceof HTMLFormElement && f.dataset.confirm && !window.confirm(f.dataset.confirm)) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  }, true);
  // htmx asks through the same attribute when a form is sent by htmx.
  document.addEventListener('htmx:confirm', function (e) {
    var f = e.target;
    if (f instanceof HTMLFormElement && f.dataset.confirm) {
      e.preventDefault();
      if (window.confirm(f.dataset.confirm)) e.detail.issueRequest(true);
    }
  });

  // Selects that apply themselves: <select data-autosubmit>.
  document.addEventListener('change', function (e) {
    var s = e.target;
    if (s instanceof HTMLSelectElement && s.hasAttribute('data-autosubmit') && s.form) s.form.requestSubmit();
  });

  // Copy buttons: <button data-copy="#selector">.
  document.addEventListener('click', function (e) {
    var b = e.target instanceof Element ? e.target.closest('[data-copy]') : null;
    if (!b) return;
    var el = document.querySelector(b.getAttribute('data-copy'));
    if (!el || !navigator.clipboard) return;
    var text = 'value' in el ? el.value : el.textContent;
    navigator.clipboard.writeText(text).then(function () {
      var old = b.textContent;
      b.textContent = b.dataset.copied || '✓';
      setTimeout(function () { b.textContent = old; }, 1500);
    });
  });

  // Charts: <div class="chart" data-chart="id"> drawn from <script type="application/json" id="id">
  // holding {labels:[unix seconds], series:[{label, values, color}], money:bool, stacked:bool}.
  function drawCharts(root) {
    if (typeof window.uPlot !== 'function') return;
    root.querySelectorAll('[data-chart]:not([data-drawn])').forEach(function (el) {
      var src = document.getElementById(el.getAttribute('data-chart'));
      if (!src) return;
      var spec = JSON.parse(src.textContent);
      el.setAttribute('data-drawn', '1');
      var data = [spec.labels];
      var series = [{}];
      spec.series.forEach(function (s) {
        data.push(s.values);
        // Lines with points and no fill: several series over 30 days stay readable where
        // filled areas would cover each other.
        series.push({ label: s.label, stroke: s.color, width: 2, points: { show: true, size: 5, fill: s.color },
          value: function (u, v) { return v == null ? '–' : (spec.money ? '$' + v.toFixed(4) : String(v)); } });
      });
      var width = Math.max(280, el.clientWidth);
      var opts = {
        width: width, height: 260, series: series,
        scales: { x: { time: true } },
        axes: [{}, { size: 70, values: function (u, vals) {
          // Daily costs are often fractions of a cent: show as many decimals as the axis's step needs.
          var step = vals.length > 1 ? Math.abs(vals[1] - vals[0]) : 1;
          var dec = spec.money ? Math.min(6, Math.max(2, Math.ceil(-Math.log10(step || 1)))) : 0;
          return vals.map(function (v) { return spec.money ? '$' + v.toFixed(dec) : String(v); });
        } }],
        legend: { live: true },
      };
      var plot = new window.uPlot(opts, data, el);
      window.addEventListener('resize', function () { plot.setSize({ width: Math.max(280, el.clientWidth), height: 260 }); });
    });
  }
  document.addEventListener('DOMContentLoaded', function () { drawCharts(document); });
  document.addEventListener('htmx:afterSettle', function (e) { drawCharts(e.target); });
})();
