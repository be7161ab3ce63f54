import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const IMAGE_TYPES = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg' };

/** A three.js view of one avatar GLB: orbit controls, its blendshapes, its clips, and the jaw. */
export class AvatarViewer {
  constructor(canvas) {
    this.canvas = canvas;
    // The drawing buffer is kept so that a screenshot (or a test sampling pixels) sees the last frame.
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true, alpha: false });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.outputColorSpace = THREE.SRGBColorSpace;
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x2b2f36);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x404048, 1.6));
    const key = new THREE.DirectionalLight(0xffffff, 1.6);
    key.position.set(0.6, 0.8, 1.5);
    this.scene.add(key);
    this.camera = new THREE.PerspectiveCamera(30, 1, 0.01, 100);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = true;
    this.timer = new THREE.Timer();
    this.meshes = [];
    this.clips = [];
    this.onFrame = [];
    this.running = true;
    this.loop();
  }

  /** Loads the GLB; the files it refers to by name (its textures) are taken from `files`, the rest of the package. */
  async load(glb, files) {
    const urls = new Map(Object.entries(files).map(([name, data]) => [name, URL.createObjectURL(new Blob([data], { type: IMAGE_TYPES[name.split('.').pop()] }))]));
    const manager = new THREE.LoadingManager();
    manager.setURLModifier((url) => urls.get(decodeURIComponent(url.replace(/^.*\//, ''))) ?? url);
    const gltf = await new GLTFLoader(manager).parseAsync(glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength), '');
    for (const u of urls.values()) URL.revokeObjectURL(u);
    this.model = gltf.scene;
    this.scene.add(this.model);
    this.model.traverse((o) => {
      if (o.isMesh && o.morphTargetDictionary) this.meshes.push(o);
      if (o.isBone && o.name === 'jaw') this.jaw = { bone: o, rest: o.quaternion.clone() };
    });
    this.clips = gltf.animations;
    this.mixer = new THREE.AnimationMixer(this.model);
    this.frame();
  }

  /** Puts the camera in front of the head (+Z), the whole bounding box in view. */
  frame() {
    const box = new THREE.Box3().setFromObject(this.model);
    const center = box.getCenter(new THREE.Vector3());
    const size = box.getSize(new THREE.Vector3());
    const distance = (Math.max(size.x, size.y) / 2 / Math.tan((this.camera.fov * Math.PI) / 360)) * 1.25 + size.z / 2;
    this.camera.position.set(center.x, center.y, center.z + distance);
    this.camera.near = distance / 100;
    this.camera.far = distance * 10;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
  }

  morphNames() {
    return [...new Set(this.meshes.flatMap((m) => Object.keys(m.morphTargetDictionary)))];
  }

  setMorph(name, weight) {
    for (const m of this.meshes) {
      const i = m.morphTargetDictionary[name];
      if (i !== undefined) m.morphTargetInfluences[i] = weight;
    }
  }

  bone(name) {
    return name === 'jaw' ? this.jaw?.bone : undefined;
  }

  /** Turns the jaw down about its hinge (the rig's X axis) from its rest pose. */
  openJaw(radians) {
    if (!this.jaw) return;
    this.jaw.bone.quaternion.copy(this.jaw.rest).multiply(new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 0, 0), radians));
  }

  play(clipName) {
    this.mixer.stopAllAction();
    const clip = this.clips.find((c) => c.name === clipName);
    if (clip) this.mixer.clipAction(clip).reset().play();
  }

  stopClips() {
    this.mixer?.stopAllAction();
  }

  resize() {
    const { clientWidth: w, clientHeight: h } = this.canvas;
    if (this.canvas.width !== Math.floor(w * this.renderer.getPixelRatio()) || this.canvas.height !== Math.floor(h * this.renderer.getPixelRatio())) {
      this.renderer.setSize(w, h, false);
      this.camera.aspect = w / Math.max(1, h);
      this.camera.updateProjectionMatrix();
    }
  }

  loop() {
    if (!this.running) return;
    this.timer.update();
    const dt = this.timer.getDelta();
    this.resize();
    this.mixer?.update(dt);
    for (const f of this.onFrame) f(dt);
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
    requestAnimationFrame(() => this.loop());
  }

  dispose() {
    this.running = false;
    this.controls.dispose();
    this.renderer.dispose();
  }
}
