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

  // The token's edit page: the framed widget follows the appearance form as the owner types
  // (<form data-look-form>, <iframe data-live-preview>), through the widget's own
  // window.svcWidget.apply; nothing is saved until the form is sent. The preview's colour
  // (<input data-preview-color>) recolours it and is judged for contrast like the server does
  // (embed.UIContrastFails: 3:1 against the theme's backgrounds).
  function lum(hex) {
    var c = [1, 3, 5].map(function (i) {
      var v = parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  }
  function ratio(a, b) {
    var x = lum(a), y = lum(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }
  function lookOf(form, frame) {
    var f = form.elements, lang = frame.dataset.lang;
    function v(n) { var e = f.namedItem(n); return e && 'value' in e ? String(e.value).trim() : ''; }
    function n(name) { var x = parseInt(v(name), 10); return isNaN(x) ? undefined : x; }
    var pos = form.querySelector('input[name=position]:checked');
    var color = document.querySelector('[data-preview-color]');
    var show = f.namedItem('show_sources');
    return {
      title: v('title') || frame.dataset.defaultTitle, welcome: v('welcome_' + lang) || v('welcome'),
      position: pos ? pos.value : 'right', offsetX: n('offset_x'), offsetY: n('offset_y'), theme: v('theme'),
      // A new address is fetched by the server when the form is saved; until then the stored image.
      avatar: v('avatar_url') && v('avatar_url') === frame.dataset.avatarUrl ? frame.dataset.avatarSrc : '',
      launcherLabel: v('launcher_label'), panelWidth: n('panel_width'), panelHeight: n('panel_height'),
      starters: [].map.call(form.querySelectorAll('input[name=starters]:checked'), function (e) { return e.value; }),
      showSources: show ? show.checked : true, color: color ? color.value : ''
    };
  }
  function contrast(frame, look) {
    var box = document.querySelector('[data-contrast-warnings]');
    if (!box || !/^#[0-9a-f]{6}$/i.test(look.color)) return;
    var bgs = look.theme === 'dark' ? ['#1b1f24'] : look.theme === 'auto' ? ['#ffffff', '#1b1f24'] : ['#ffffff'];
    box.replaceChildren();
    bgs.forEach(function (bg) {
      var r = ratio(look.color, bg);
      if (r >= 3) return;
      var p = document.createElement('p');
      p.className = 'flash flash-warn';
      p.setAttribute('role', 'status');
      p.textContent = frame.dataset.contrastText.replace('%c', look.color)
        .replace('%r', r.toFixed(1).replace('.', frame.dataset.decimal || '.'))
        .replace('%b', bg === '#ffffff' ? frame.dataset.bgLight : frame.dataset.bgDark);
      box.append(p);
    });
  }
  function livePreview(root) {
    var form = root.querySelector('form[data-look-form]'), frame = root.querySelector('iframe[data-live-preview]');
    if (!form || !frame) return;
    function widget() {
      try { return frame.contentWindow && frame.contentWindow.svcWidget; } catch (e) { return null; }
    }
    function ready() {
      var doc;
      try { doc = frame.contentDocument; } catch (e) { return false; }
      var host = doc && doc.getElementById('svc-widget');
      return !!host && host.dataset.ready === '1';
    }
    function update() {
      var look = lookOf(form, frame), w = widget();
      contrast(frame, look);
      if (w && ready()) w.apply(look);
    }
    // Once the framed widget has applied the stored settings, the form's (which may differ,
    // after a refused save) take over; then every change.
    function whenReady() {
      var tries = 0;
      (function wait() {
        if (ready()) return update();
        if (++tries < 100) setTimeout(wait, 50);
      })();
    }
    frame.addEventListener('load', whenReady);
    whenReady();
    form.addEventListener('input', update);
    form.addEventListener('change', update);
    var color = document.querySelector('[data-preview-color]');
    if (color) color.addEventListener('input', update);
  }

  document.addEventListener('DOMContentLoaded', function () { drawCharts(document); watchPreviews(document); livePreview(document); });
  document.addEventListener('htmx:afterSettle', function (e) { drawCharts(e.target); });
})();
