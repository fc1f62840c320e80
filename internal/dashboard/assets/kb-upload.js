// svc dashboard, knowledge-base import: files dropped on the form's file field, or chosen
// and sent, go to the server one at a time, each with its own progress bar and then its own
// result (the server's fragment for that file). Without this script the form sends its
// files together and the page that comes back lists their results: nothing here is needed
// to upload. No inline code (the CSP forbids it): the form is found by data-kb-upload, and
// every word shown comes from the page's own data attributes, in the user's language.
(function () {
  'use strict';

  function setup(form) {
    var input = form.querySelector('input[type="file"][name="file"]');
    var zone = form.querySelector('[data-kb-drop]');
    var box = form.parentNode.querySelector('[data-kb-uploads]');
    var list = box && box.querySelector('.kb-upload-list');
    if (!input || !zone || !list || typeof FormData !== 'function') return;
    var hint = zone.querySelector('[data-kb-drop-hint]');
    if (hint) hint.hidden = false;
    var queue = [];
    var busy = false;

    function item(file) {
      var li = document.createElement('li');
      li.className = 'kb-upload-item';
      li.dataset.state = 'queued';
      var name = document.createElement('span');
      name.className = 'kb-upload-name';
      name.textContent = file.name;
      var bar = document.createElement('progress');
      bar.max = 100;
      bar.value = 0;
      bar.setAttribute('aria-label', (form.dataset.progressLabel || '%s').replace('%s', file.name));
      var result = document.createElement('div');
      result.className = 'kb-upload-result';
      li.appendChild(name);
      li.appendChild(bar);
      li.appendChild(result);
      list.appendChild(li);
      return { li: li, bar: bar, result: result };
    }

    // The server's answer for one file: its result fragment, or, when the answer is anything
    // else (a sign-in page after the session ended, an error page), the page's own notice.
    function finish(ui, xhr) {
      var res = null;
      if (xhr && xhr.status >= 200 && xhr.status < 300) {
        var tpl = document.createElement('template');
        tpl.innerHTML = xhr.responseText;
        res = tpl.content.querySelector('[data-kb-file-result]');
      }
      ui.bar.remove();
      if (res) {
        ui.result.appendChild(res);
        ui.li.dataset.state = res.dataset.state === 'ok' ? 'ok' : 'failed';
      } else {
        ui.result.textContent = form.dataset.networkError || '';
        ui.li.dataset.state = 'failed';
      }
    }

    function send(job, done) {
      var fd = new FormData(form);
      fd.delete('file');
      fd.append('file', job.file, job.file.name);
      var xhr = new XMLHttpRequest();
      xhr.open('POST', form.action);
      // The server answers a request marked as htmx's with the one file's result.
      xhr.setRequestHeader('HX-Request', 'true');
      job.ui.li.dataset.state = 'uploading';
      xhr.upload.addEventListener('progress', function (e) {
        if (e.lengthComputable) job.ui.bar.value = Math.round(100 * e.loaded / e.total);
      });
      xhr.addEventListener('load', function () { finish(job.ui, xhr); done(); });
      xhr.addEventListener('error', function () { finish(job.ui, null); done(); });
      xhr.addEventListener('abort', function () { finish(job.ui, null); done(); });
      xhr.send(fd);
    }

    // One file at a time: the server reads each whole, and the account's upload rate
    // counts files.
    function next() {
      var job = queue.shift();
      if (!job) {
        busy = false;
        return;
      }
      busy = true;
      send(job, next);
    }

    function upload(files) {
      if (!files || !files.length) return;
      box.hidden = false;
      for (var i = 0; i < files.length; i++) queue.push({ file: files[i], ui: item(files[i]) });
      if (!busy) next();
    }

    form.addEventListener('submit', function (e) {
      if (!input.files || !input.files.length) return; // the browser's own "required" check
      e.preventDefault();
      var files = Array.prototype.slice.call(input.files);
      input.value = '';
      upload(files);
    });

    function hasFiles(e) {
      var types = e.dataTransfer && e.dataTransfer.types;
      return !!types && Array.prototype.indexOf.call(types, 'Files') >= 0;
    }
    zone.addEventListener('dragover', function (e) {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      zone.classList.add('kb-drop-over');
    });
    zone.addEventListener('dragleave', function (e) {
      if (!zone.contains(e.relatedTarget)) zone.classList.remove('kb-drop-over');
    });
    zone.addEventListener('drop', function (e) {
      if (!hasFiles(e)) return;
      e.preventDefault();
      zone.classList.remove('kb-drop-over');
      upload(Array.prototype.slice.call(e.dataTransfer.files));
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    document.querySelectorAll('form[data-kb-upload]').forEach(setup);
  });
})();
