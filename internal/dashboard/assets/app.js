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
  // holding {labels:[unix seconds], series:[{label, values, color}], money:bool, format}. format
  // is how the page's language writes numbers, dollars and days (overview.go's chartFormat),
  // so the axes and the legend read like the cards and tables beside the chart.
  function number(f, v, dec) {
    var parts = Math.abs(v).toFixed(dec).split('.');
    var s = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, f.thousands) + (dec > 0 ? f.decimal + parts[1] : '');
    return (v < 0 ? '-' : '') + s;
  }
  function money(f, v, dec) {
    return (v < 0 ? '-' : '') + f.moneyPrefix + number(f, Math.abs(v), dec) + f.moneySuffix;
  }
  // Days are 00:00 UTC, and every time in the dashboard is UTC: not the browser's zone.
  function utc(ts) { return window.uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'); }
  // An axis as wide as its longest label (uPlot's own recipe), since "0,000021 $" is longer
  // than "$0.03".
  function axisSize(u, values, i, cycle) {
    var axis = u.axes[i];
    if (cycle > 1) return axis._size;
    var size = axis.ticks.size + axis.gap;
    var longest = (values || []).reduce(function (a, v) { return v.length > a.length ? v : a; }, '');
    if (longest) {
      u.ctx.font = axis.font[0];
      size += u.ctx.measureText(longest).width / (window.devicePixelRatio || 1);
    }
    return Math.ceil(size);
  }
  // A count's axis steps by whole numbers: 1, 2, 5, 10, 20, 50, …
  var counts = [];
  for (var e = 1; e < 1e9; e *= 10) counts.push(e, 2 * e, 5 * e);
  function drawCharts(root) {
    if (typeof window.uPlot !== 'function') return;
    root.querySelectorAll('[data-chart]:not([data-drawn])').forEach(function (el) {
      var src = document.getElementById(el.getAttribute('data-chart'));
      if (!src) return;
      var spec = JSON.parse(src.textContent);
      var f = spec.format;
      var day = window.uPlot.fmtDate(f.day), dayShort = window.uPlot.fmtDate(f.dayShort);
      el.setAttribute('data-drawn', '1');
      var data = [spec.labels];
      var series = [{ label: f.dayLabel, value: function (u, ts) { return ts == null ? '–' : day(utc(ts)); } }];
      spec.series.forEach(function (s) {
        data.push(s.values);
        // Lines with points and no fill: several series over 30 days stay readable where
        // filled areas would cover each other.
        series.push({ label: s.label, stroke: s.color, width: 2, points: { show: true, size: 5, fill: s.color },
          value: function (u, v) { return v == null ? '–' : (spec.money ? money(f, v, 4) : number(f, v, 0)); } });
      });
      var width = Math.max(280, el.clientWidth);
      var opts = {
        width: width, height: 260, series: series, tzDate: utc,
        scales: { x: { time: true } },
        axes: [{ values: function (u, vals) { return vals.map(function (ts) { return ts == null ? '' : dayShort(utc(ts)); }); } },
          { size: axisSize, incrs: spec.money ? undefined : counts, values: function (u, vals) {
            // Daily costs are often fractions of a cent: show as many decimals as the axis's step needs.
            var step = vals.length > 1 ? Math.abs(vals[1] - vals[0]) : 1;
            var dec = spec.money ? Math.min(6, Math.max(2, Math.ceil(-Math.log10(step || 1)))) : 0;
            return vals.map(function (v) { return spec.money ? money(f, v, dec) : number(f, v, 0); });
          } }],
        legend: { live: true },
      };
      var plot = new window.uPlot(opts, data, el);
      // Kept on the element for the resize below and for the browser tests.
      el.uplot = plot;
      window.addEventListener('resize', function () { plot.setSize({ width: Math.max(280, el.clientWidth), height: 260 }); });
    });
  }
  // The widget's live preview, <iframe data-widget-preview>, frames a page of this origin
  // holding a note and the real widget. While the widget is closed the frame is as tall as
  // that page (the note and the launcher under it), not a tall empty box; open, it is as tall
  // as the widget's panel needs (620 px, 88 px above the frame's bottom, and a margin). The
  // frame's CSS height (640 px) stays for pages without JavaScript.
  var PREVIEW_OPEN = 720;
  function fitPreview(frame) {
    var doc;
    try { doc = frame.contentDocument; } catch (e) { return; }
    // Once a document: the load event and the check at start may both find it.
    if (!doc || !doc.body || frame.svcFitted === doc) return;
    frame.svcFitted = doc;
    var main = doc.querySelector('main') || doc.body;
    function fit() {
      var host = doc.getElementById('svc-widget');
      var open = !!host && host.dataset.state === 'open';
      var height = Math.ceil(main.getBoundingClientRect().bottom + doc.defaultView.scrollY);
      frame.style.height = (open ? Math.max(height, PREVIEW_OPEN) : height) + 'px';
      frame.dataset.state = open ? 'open' : 'closed';
    }
    // The widget adds its host to the page, and sets data-state on it when it opens or closes.
    new MutationObserver(fit).observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-state'] });
    if (typeof ResizeObserver === 'function') new ResizeObserver(fit).observe(main);
    fit();
  }
  function watchPreviews(root) {
    root.querySelectorAll('iframe[data-widget-preview]').forEach(function (frame) {
      frame.addEventListener('load', function () { fitPreview(frame); });
      var doc = null;
      try { doc = frame.contentDocument; } catch (e) { /* not ours */ }
      if (doc && doc.readyState === 'complete' && doc.URL !== 'about:blank') fitPreview(frame);
    });
  }

  document.addEventListener('DOMContentLoaded', function () { drawCharts(document); watchPreviews(document); });
  document.addEventListener('htmx:afterSettle', function (e) { drawCharts(e.target); });
})();
